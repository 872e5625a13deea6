// Any path no other route claims is the spec's 404 page, served with status 404.
export function loader(): never {
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
