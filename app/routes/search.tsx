import type { MetaFunction } from "@remix-run/cloudflare";

export const meta: MetaFunction = () => [{ title: "Search · NoteX" }];

export default function Search() {
  return (
    <section className="page prose">
      <h1>Search</h1>
      <p>Search is coming soon.</p>
    </section>
  );
}
