import { Link, useFetcher, useLocation } from "@remix-run/react";
import { dialogHref } from "~/lib/scroll";
import { useEffect, useState } from "react";
import { PersonActionForm } from "../PersonActionForm";
import { Toast } from "../Toast";
import { closeMenu } from "../social/ToggleForm";

interface Target {
  id: number;
  username: string;
  muting?: boolean;
  blocking?: boolean;
}

type Answer = { ok: boolean; data?: { muting?: boolean; blocking?: boolean } };

/**
 * Mute / Unmute and Block / Unblock as menu items: plain forms (they work without JavaScript and
 * come back to this page, or to `back`), enhanced into fetchers that flip their label and say what
 * happened. Block asks first: it opens its confirmation (BlockDialog) instead of posting.
 */
export function SafetyItems({ user, back }: { user: Target; back?: string }) {
  const mute = useFetcher<Answer>();
  const block = useFetcher<Answer>();
  const location = useLocation();
  const [toast, setToast] = useState<{ text: string; at: number } | null>(null);
  const muting = mute.data?.data?.muting ?? user.muting ?? false;
  const blocking = block.data?.data?.blocking ?? user.blocking ?? false;

  useEffect(() => {
    const d = mute.data?.data;
    if (d && d.muting !== undefined)
      setToast({ text: d.muting ? `Muted @${user.username}` : `Unmuted @${user.username}`, at: Date.now() });
  }, [mute.data, user.username]);
  useEffect(() => {
    const d = block.data?.data;
    if (d && d.blocking !== undefined)
      setToast({ text: d.blocking ? `Blocked @${user.username}` : `Unblocked @${user.username}`, at: Date.now() });
  }, [block.data, user.username]);

  const item = (f: typeof mute, intent: string, label: string, className?: string) => (
    <li>
      <PersonActionForm
        fetcher={f}
        action="/actions/safety"
        uid={user.id}
        intent={intent}
        label={label}
        className={className}
        redirectTo={back}
      />
    </li>
  );
  return (
    <>
      {item(mute, muting ? "unmute" : "mute", muting ? `Unmute @${user.username}` : `Mute @${user.username}`)}
      {blocking ? (
        item(block, "unblock", `Unblock @${user.username}`)
      ) : (
        <li>
          <Link
            to={dialogHref(location, "block", { id: user.id, u: user.username })}
            className="danger"
            preventScrollReset
            onClick={closeMenu}
          >
            Block @{user.username}…
          </Link>
        </li>
      )}
      <Toast message={toast?.text} id={toast?.at} />
    </>
  );
}
