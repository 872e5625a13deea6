// Following someone here from another server, as Mastodon's remote-follow dialog does: the
// visitor names their server (or their handle there) and is sent to that server's follow page for
// this person (/authorize_interaction?uri=…, which Mastodon, Pixelfed and GoToSocial answer). Nothing
// is fetched or redirected here: the browser goes there itself (with JavaScript at once; without
// it, by a link this page shows), so no address a visitor types is ever requested by NoteX.
import { Form, Link, useLocation, useSearchParams } from "@remix-run/react";
import { dialogHref } from "~/lib/scroll";
import { Dialog } from "../Dialog";
import { CopyButton } from "../CopyButton";

/** The server in what a visitor typed: "mastodon.social", "@me@mastodon.social", "https://…/". */
export function serverOf(typed: string): string | null {
  const t = typed
    .trim()
    .replace(/^https?:\/\//i, "")
    .replace(/\/.*$/, "");
  const host = t.includes("@") ? t.slice(t.lastIndexOf("@") + 1) : t;
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d{1,5})?$/i.test(host) ? host.toLowerCase() : null;
}

export const followThere = (server: string, handle: string) =>
  `https://${server}/authorize_interaction?${new URLSearchParams({ uri: handle })}`;

export function RemoteFollowDialog({ name, handle }: { name: string; handle: string }) {
  const location = useLocation();
  const [params] = useSearchParams();
  const typed = params.get("server") ?? "";
  const server = typed ? serverOf(typed) : null;
  return (
    <Dialog title={`Follow ${name}`}>
      <section className="follow-way">
        <h3>With a NoteX account</h3>
        <p className="join">
          <Link to={dialogHref(location, "signup")} className="btn primary">
            Sign up
          </Link>
          <Link to={dialogHref(location, "login")} className="btn">
            Log in
          </Link>
        </p>
      </section>
      <section className="follow-way">
        <h3>From your Mastodon server</h3>
        <p>
          NoteX people can be followed from Mastodon and the rest of the fediverse. Enter your server, or search for{" "}
          <strong className="fedi-handle">{handle}</strong>{" "}
          <CopyButton label="Copy handle" text={() => handle} className="btn small" /> there.
        </p>
        <Form
          method="get"
          className="remote-follow"
          preventScrollReset
          onSubmit={(e) => {
            // With JavaScript, straight to the visitor's server (a known one only: else the page says why).
            const s = serverOf(new FormData(e.currentTarget).get("server")?.toString() ?? "");
            if (!s) return;
            e.preventDefault();
            window.location.assign(followThere(s, handle));
          }}
        >
          <input type="hidden" name="dialog" value="follow" />
          <label htmlFor="remote-server">Your server or handle</label>
          <div className="row">
            <input
              id="remote-server"
              name="server"
              defaultValue={typed}
              placeholder="mastodon.social"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              inputMode="url"
              aria-invalid={typed && !server ? true : undefined}
              aria-describedby={typed && !server ? "remote-server-error" : undefined}
            />
            <button type="submit" className="btn primary">
              Follow
            </button>
          </div>
          {typed && !server && (
            <p id="remote-server-error" className="error" role="alert">
              Enter a server such as mastodon.social, or a handle such as @you@mastodon.social.
            </p>
          )}
        </Form>
        {server && (
          <p>
            <a href={followThere(server, handle)} className="btn primary" rel="noopener noreferrer nofollow">
              Continue on {server}
            </a>
          </p>
        )}
      </section>
    </Dialog>
  );
}
