import { Link, useLocation } from "@remix-run/react";
import { dialogHref } from "~/lib/scroll";
import { profilePath } from "~/lib/url";
import type { Showcase, ShowcasePost } from "../../worker/features/showcase/showcase.service";
import { AuthorLink } from "./Avatar";
import { noun } from "~/lib/plural";

function Post({ post }: { post: ShowcasePost }) {
  return (
    <div className="showcase-post">
      <AuthorLink user={post} size={32} />
      <p>{post.txt}</p>
    </div>
  );
}

/** One real portfolio and one real thread from the network: what joining gets you, shown. */
function Examples({ showcase }: { showcase: Showcase }) {
  const { portfolio, thread } = showcase;
  if (!portfolio && !thread) return null;
  return (
    <div className="showcase">
      {portfolio && (
        <section className="showcase-card" aria-labelledby="showcase-portfolio">
          <h2 id="showcase-portfolio">A portfolio on NoteX</h2>
          <AuthorLink user={portfolio.person} size={40} />
          {portfolio.person.descr && <p className="muted">{portfolio.person.descr}</p>}
          <ul className="showcase-folders">
            {portfolio.folders.map((f) => (
              <li key={f.slug}>
                <Link to={`${profilePath(portfolio.person.username)}/x/${f.slug}`}>
                  <small>{f.type}</small>
                  <strong>{f.name}</strong>
                  <span className="muted">
                    {f.notenum} {noun(f.notenum, "note")}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <Link to={profilePath(portfolio.person.username)} className="showcase-more">
            See {portfolio.person.fullname}'s portfolio
          </Link>
        </section>
      )}
      {thread && (
        <section className="showcase-card" aria-labelledby="showcase-thread">
          <h2 id="showcase-thread">A conversation on NoteX</h2>
          <Post post={thread.note} />
          {thread.replies.length > 0 && (
            <ul className="showcase-replies">
              {thread.replies.map((r) => (
                <li key={r.id}>
                  <Post post={r} />
                </li>
              ))}
            </ul>
          )}
          <Link to={`${profilePath(thread.note.username)}/note/${thread.note.id}`} className="showcase-more">
            Read the thread · {thread.note.repnum} {thread.note.repnum === 1 ? "reply" : "replies"}
          </Link>
        </section>
      )}
    </div>
  );
}

/**
 * A visitor's first page: what NoteX is, shown with a real portfolio and a real thread, with Sign up
 * as the next step (Log in beside it), and that its people can be followed from the fediverse.
 */
export function Welcome({ showcase, host }: { showcase: Showcase | null; host: string }) {
  const location = useLocation();
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Take notes. Show what you have done.</h1>
      <p>
        NoteX is a social notebook: write notes under <strong>x-labels</strong> — ideas, tips, how-tos — and file them
        into <strong>x-folders</strong> for your projects, jobs, courses and skills, a living portfolio that people can
        follow.
      </p>
      <div className="row start">
        <Link to={dialogHref(location, "signup")} className="btn primary" preventScrollReset>
          Sign up
        </Link>
        <Link to={dialogHref(location, "login")} className="btn" preventScrollReset>
          Log in
        </Link>
      </div>
      <p className="fedi-hint">
        On Mastodon? Everyone on NoteX can be followed from Mastodon and other fediverse apps: search there for{" "}
        <strong>@name@{host}</strong>.
      </p>
      {showcase && <Examples showcase={showcase} />}
    </section>
  );
}
