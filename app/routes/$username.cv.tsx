import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { must, readPage } from "~/lib/page.server";
import { siteOrigin } from "../../worker/features/accounts/accounts.service";
import { portfolioRead } from "../../worker/features/resume/resume.read";
import { toJsonResume } from "../../worker/features/resume/resume.json";
import { type CvEntry, cvOf } from "../../worker/features/resume/cv.model";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.cv.name} · CV · NoteX` : "NoteX" },
  ...(data?.cv.summary ? [{ name: "description", content: data.cv.summary.slice(0, 160) }] : []),
];

// The person and their x-folders in one statement (the same read as /{username}/resume.json).
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const username = params.username ?? "";
  const { viewer, reads } = await readPage(request, context, {
    portfolio: (db) => portfolioRead(db, { username }),
  });
  const p = must(viewer, reads.portfolio);
  const hint = new URL(request.url).searchParams.has("print");
  return {
    viewer,
    username: p.username,
    hint,
    cv: cvOf(toJsonResume(p, siteOrigin(context.cloudflare.env, request.url))),
  };
}

function Entry({ e }: { e: CvEntry }) {
  const web = /^https?:\/\//i.test(e.url);
  return (
    <li className="cv-entry">
      <div className="cv-entry-head">
        <h3>{web ? <a href={e.url}>{e.title}</a> : e.title}</h3>
        {e.dates && <span className="cv-dates">{e.dates}</span>}
      </div>
      {e.subtitle && <p className="cv-sub">{e.subtitle}</p>}
      {e.summary && <p className="cv-summary">{e.summary}</p>}
    </li>
  );
}

export default function CvPage() {
  const { cv, username, hint } = useLoaderData<typeof loader>();
  return (
    <section className="page cv-page">
      <nav className="cv-actions" aria-label="CV">
        <Link to={`/${username}`} className="btn small">
          ← Profile
        </Link>
        <a href={`/${username}/resume.json`} className="btn small" type="application/json">
          JSON Resume
        </a>
        {/* With JavaScript the print dialog opens; without it the page comes back with how to print. */}
        <Form method="get" preventScrollReset>
          <button
            type="submit"
            name="print"
            value="1"
            className="btn small primary"
            onClick={(ev) => {
              ev.preventDefault();
              window.print();
            }}
          >
            Save as PDF
          </button>
        </Form>
      </nav>
      {hint && (
        <p className="cv-print-hint" role="status">
          To save this CV as a PDF, print it (Ctrl+P, or ⌘P on a Mac) and choose “Save as PDF” as the printer.
        </p>
      )}
      <article className="cv-sheet">
        <header className="cv-head">
          <h1>{cv.name}</h1>
          {cv.label && <p className="cv-label">{cv.label}</p>}
          <p className="cv-contact">
            <a href={cv.profile}>{cv.profile.replace(/^https?:\/\//, "")}</a>
          </p>
          {cv.summary && <p className="cv-about">{cv.summary}</p>}
        </header>
        {cv.sections.length === 0 && (
          <p className="empty">No experience yet: x-folders of jobs, schools, projects and skills make up this CV.</p>
        )}
        {cv.sections.map((s) => (
          <section key={s.title} className="cv-section-block" aria-label={s.title}>
            <h2>{s.title}</h2>
            <ul className={s.entries.every((e) => !e.dates && !e.summary) ? "cv-entries cv-chips" : "cv-entries"}>
              {s.entries.map((e, i) => (
                <Entry key={i} e={e} />
              ))}
            </ul>
          </section>
        ))}
      </article>
    </section>
  );
}
