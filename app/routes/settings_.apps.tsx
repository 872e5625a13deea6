import { viewerIdOf, withViewer } from "~/lib/page.server";
import { listTokens } from "../../worker/features/mastodon/tokens";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Ago } from "~/components/Ago";
import { Toast } from "~/components/Toast";
import { apiFor, result } from "~/lib/api.server";

export const meta: MetaFunction = () => [{ title: "Authorised apps · NoteX" }];

/**
 * Settings → Authorised apps: every Mastodon app holding a token for the person, each with Revoke.
 * The tokens are sessions in KV (mastodon/tokens.ts): the page's D1 work is the person's record.
 */
export async function loader(args: LoaderFunctionArgs) {
  const uid = viewerIdOf(args.context);
  if (!uid) throw redirect("/login");
  const revoked = new URL(args.request.url).searchParams.get("revoked") === "1";
  return withViewer(args, async () => ({ apps: await listTokens(args.context.cloudflare.env, uid), revoked }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  if (!id) throw new Response("Unknown app", { status: 400 });
  const res = await result(
    apiFor(request, context).v1.oauth.apps[":id"].$delete({ param: { id: encodeURIComponent(id) } }),
  );
  if (!res.ok && res.status === 401) throw redirect("/login");
  return redirect("/settings/apps?revoked=1");
}

export default function AuthorisedApps() {
  const { apps, revoked } = useLoaderData<typeof loader>();
  return (
    <section className="page narrow">
      <p>
        <Link to="/settings">← Settings</Link>
      </p>
      <h1>Authorised apps</h1>
      <p className="muted">
        Mastodon apps (Elk, Phanpy, Ivory, Tusky, Ice Cubes…) you let into your account. Revoking one signs it out at
        once; changing your password or logging out everywhere signs out all of them.
      </p>
      {apps.length === 0 ? (
        <p>No app is signed in to your account.</p>
      ) : (
        <ul className="sessions">
          {apps.map((a) => (
            <li key={a.id} className="session">
              <div>
                <p className="session-device">{a.name}</p>
                <p className="muted">
                  {a.scopes.join(", ")} · authorised <Ago ms={a.created_at} /> ago · used <Ago ms={a.last_used_at} />{" "}
                  ago
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="id" value={a.id} />
                <button className="btn small" type="submit" aria-label={`Revoke ${a.name}`}>
                  Revoke
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Toast message={revoked ? "App revoked" : null} id={revoked ? "revoked" : undefined} />
    </section>
  );
}
