import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { SessionJson } from "../../../worker/features/accounts/sessions.service";
import type { UserJson } from "../../../worker/features/users/users.service";
import { Dialog } from "~/components/Dialog";
import { Field, FormError } from "~/components/Field";
import { Ago } from "~/components/Ago";

/** What a failed Settings action answers (the section it came from, its message and field errors). */
export interface SettingsResult {
  section: string;
  error?: string | null;
  fields?: Record<string, string>;
  value?: string;
}

/** Settings sections of issue 17: where you are signed in, your data, and leaving. */
export function AccountSections({
  user,
  sessions,
  result,
}: {
  user: UserJson;
  sessions: SessionJson[];
  result?: SettingsResult;
}) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <>
      <section className="settings-row" aria-labelledby="h-sessions">
        <div className="settings-head">
          <h2 id="h-sessions">Where you are signed in</h2>
          {others > 0 && (
            <Form method="post">
              <input type="hidden" name="intent" value="end-others" />
              <button className="btn small" type="submit">
                Sign out all other devices
              </button>
            </Form>
          )}
        </div>
        <FormError
          error={result?.section === "end-session" || result?.section === "end-others" ? result.error : undefined}
        />
        <ul className="sessions">
          {sessions.map((s) => (
            <li key={s.id} className="session">
              <div>
                <p className="session-device">
                  {s.device}
                  {s.current && <span className="pill ok">This device</span>}
                  {s.app && <span className="pill">App</span>}
                </p>
                {s.may && <p className="muted">May: {s.may.join("; ")}</p>}
                <p className="muted">
                  {/* Ago: the server's clock and the browser's differ by the page's age, and a text
                      React did not render itself makes it render the whole page again. */}
                  {s.app ? "Authorised" : "Signed in"} <Ago ms={s.created_at} /> ago · active{" "}
                  {Date.now() - s.last_active_at < 5 * 60_000 ? (
                    "now"
                  ) : (
                    <>
                      <Ago ms={s.last_active_at} /> ago
                    </>
                  )}
                </p>
              </div>
              {!s.current && (
                <Form method="post">
                  <input type="hidden" name="intent" value="end-session" />
                  <input type="hidden" name="id" value={s.id} />
                  <button
                    className="btn small"
                    type="submit"
                    aria-label={`${s.app ? "Revoke" : "Sign out"} ${s.device}`}
                  >
                    {s.app ? "Revoke" : "Sign out"}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      </section>
      <SettingsRow
        id="h-export"
        title="Your data"
        action={
          <a className="btn small" href="/v1/export" download>
            Download my data
          </a>
        }
      >
        A zip of your profile, every note as Markdown, your replies, x-folders, bookmarks, follows and images.
      </SettingsRow>
      <SettingsRow
        id="h-delete"
        title="Delete account"
        danger
        action={
          <Link to="?dialog=delete-account" className="btn small danger" preventScrollReset>
            Delete account…
          </Link>
        }
      >
        Removes @{user.username} and everything in it for good.
      </SettingsRow>
    </>
  );
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** The confirm dialog: what will be lost, then the password (or, without one, the username). */
export function DeleteAccountDialog({ user, result }: { user: UserJson; result?: SettingsResult }) {
  const busy = useNavigation().state === "submitting";
  const { stats } = user;
  const failed = result?.section === "delete" ? result : undefined;
  return (
    <Dialog title="Delete your account?" closeTo="/settings">
      <p>
        This deletes <strong>@{user.username}</strong> now and for good. It cannot be undone. You will lose:
      </p>
      <ul className="loss-list">
        <li>{plural(stats.note, "note", "notes")}, with their replies, likes and images</li>
        <li>your replies, likes, bookmarks and x-folders</li>
        <li>
          {plural(stats.follower, "follower", "followers")} and the {plural(stats.following, "person", "people")} you
          follow
        </li>
        <li>your username and email, which others may then take</li>
      </ul>
      <p className="muted">
        Want a copy first? <a href="/v1/export">Download your data</a>.
      </p>
      <Form method="post" action="/settings" noValidate>
        <input type="hidden" name="intent" value="delete" />
        <FormError error={failed?.error} />
        {user.has_password === false ? (
          <Field
            label={`Type your username (${user.username}) to confirm`}
            name="username"
            autoComplete="off"
            error={failed?.fields?.username}
          />
        ) : (
          <Field
            label="Your password"
            name="password"
            type="password"
            autoComplete="current-password"
            error={failed?.fields?.password}
          />
        )}
        <div className="row">
          <Link to="/settings" className="btn" replace preventScrollReset>
            Cancel
          </Link>
          <button className="btn danger" type="submit" disabled={busy}>
            Delete my account
          </button>
        </div>
      </Form>
    </Dialog>
  );
}

/** A Settings row: a heading with its one action, and a line on what it does. */
function SettingsRow(props: { id: string; title: string; action: ReactNode; danger?: boolean; children: ReactNode }) {
  return (
    <section className={props.danger ? "settings-row danger-zone" : "settings-row"} aria-labelledby={props.id}>
      <div className="settings-head">
        <h2 id={props.id}>{props.title}</h2>
        {props.action}
      </div>
      <p className="muted">{props.children}</p>
    </section>
  );
}
