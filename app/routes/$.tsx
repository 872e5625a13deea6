import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { notHere, readPage } from "~/lib/page.server";

// Any path no other route claims is the spec's 404 page, served with status 404 (with the person's
// record, so the sidebar stays theirs).
export async function loader({ request, context }: LoaderFunctionArgs): Promise<never> {
  throw notHere((await readPage(request, context, {})).viewer);
}

export default function NotFound() {
  return null;
}
