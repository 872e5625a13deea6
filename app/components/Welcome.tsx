import { Link, useLocation } from "@remix-run/react";
import { dialogHref } from "~/lib/scroll";

/** A visitor's first page says what NoteX is, with Sign up as the next step (Log in beside it). */
export function Welcome() {
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
    </section>
  );
}
