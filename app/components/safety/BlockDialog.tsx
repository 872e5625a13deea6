import { Form, Link, useLocation, useSearchParams } from "@remix-run/react";
import { pageOf } from "~/lib/scroll";
import { Dialog } from "../Dialog";

/**
 * Block asks first (?dialog=block&id=&u=): what a block does, said before it is done, with the
 * destructive button in red. Yes is a plain form post that comes back to the page under the
 * dialog, where a notice says it is done (with or without JavaScript).
 */
export function BlockDialog() {
  const [params] = useSearchParams();
  const location = useLocation();
  const back = pageOf(location);
  const username = params.get("u") ?? "";
  return (
    <Dialog title={`Block @${username}?`}>
      <p>They will not be able to follow you, see your notes or reply to you, and you will not see theirs.</p>
      <p className="muted">
        If you follow each other, both follows end. They are not told, but they will see that they are blocked if they
        visit your profile. You can unblock them at any time from their profile or Settings.
      </p>
      <Form method="post" action="/actions/safety" className="row" reloadDocument>
        <input type="hidden" name="uid" value={params.get("id") ?? ""} />
        <input type="hidden" name="intent" value="block" />
        <input type="hidden" name="redirectTo" value={back} />
        <Link to={back} className="btn" replace preventScrollReset>
          Cancel
        </Link>
        <button className="btn danger" type="submit">
          Block
        </button>
      </Form>
    </Dialog>
  );
}
