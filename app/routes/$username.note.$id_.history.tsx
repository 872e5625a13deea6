import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { must, notHere, readPage } from "~/lib/page.server";
import { readOne } from "../../worker/db/reads";
import { historyRead } from "../../worker/features/notes/read.service";
import { formerOwnerRead } from "../../worker/features/users/users.read";
import { positiveId } from "~/lib/notes.server";
import { toCurrentName } from "~/lib/moved.server";

export const meta: MetaFunction = () => [{ title: "Edit history · NoteX" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  const page = await readPage(request, context, { history: (db, me) => historyRead(db, id, me) });
  const history = must(page.viewer, page.reads.history);
  // The author in the address must be the note's (as on the note page), or have been: a former
  // name moves to the one they have now (a second trip, only then).
  const asked = params.username ?? "";
  if (history.username.toLowerCase() !== asked.toLowerCase()) {
    const owner = await readOne(page.db, formerOwnerRead(page.db, asked));
    if (owner && owner.username.toLowerCase() === history.username.toLowerCase()) toCurrentName(request, asked, owner);
    throw notHere(page.viewer);
  }
  return { viewer: page.viewer, ...history };
}

const when = (t: number) =>
  new Date(t).toLocaleString("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export default function NoteHistory() {
  const { id, username, versions } = useLoaderData<typeof loader>();
  return (
    <section className="page">
      <h1>Edit history</h1>
      <p>
        <Link to={`/${username}/note/${id}`}>← Back to the note</Link>
      </p>
      <ol className="versions">
        {versions.map((v, i) => (
          <li key={`${v.edited_at}-${i}`} className="version">
            <p className="muted">
              <strong>
                {v.current ? "Current version" : i === versions.length - 1 ? "Original" : "Earlier version"}
              </strong>
              {" · "}
              <time dateTime={new Date(v.edited_at).toISOString()}>{when(v.edited_at)} UTC</time>
              {v.label && <span className="label">{v.label}</span>}
            </p>
            {/* Content was sanitised with an allow-list when it was written (worker/lib/sanitize.ts). */}
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on write */}
            <div className="content" dangerouslySetInnerHTML={{ __html: v.content }} />
          </li>
        ))}
      </ol>
    </section>
  );
}
