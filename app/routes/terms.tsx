import { viewerOnly } from "~/lib/page.server";
import type { MetaFunction } from "@remix-run/cloudflare";

export const meta: MetaFunction = () => [{ title: "Terms of Service · NoteX" }];

export default function Page() {
  return (
    <section className="page prose">
      <h1>Terms of Service</h1>
      <p>This page is a placeholder. The full text will be published here before NoteX leaves preview.</p>
    </section>
  );
}

// Nothing of its own to read: the person's record only (the sidebar).
export const loader = viewerOnly;
