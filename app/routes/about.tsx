import { viewerOnly } from "~/lib/page.server";
import type { MetaFunction } from "@remix-run/cloudflare";

export const meta: MetaFunction = () => [{ title: "About · NoteX" }];

export default function About() {
  return (
    <section className="page prose">
      <h1>About NoteX</h1>
      <p>
        NoteX is a social note-taking and professional-experience network: post notes under an x-label, file them into
        x-folders — your skills, projects, companies and schools — and let them add up to a living portfolio.
      </p>
      <h2>Credits</h2>
      <p>Designed and built by the NoteX team.</p>
      <ul className="social">
        <li>
          <a href="https://github.com/notex" rel="noopener noreferrer" target="_blank">
            GitHub
          </a>
        </li>
        <li>
          <a href="https://www.linkedin.com/company/notex" rel="noopener noreferrer" target="_blank">
            LinkedIn
          </a>
        </li>
        <li>
          <a href="https://x.com/notex" rel="noopener noreferrer" target="_blank">
            X
          </a>
        </li>
      </ul>
    </section>
  );
}

// Nothing of its own to read: the person's record only (the sidebar).
export const loader = viewerOnly;
