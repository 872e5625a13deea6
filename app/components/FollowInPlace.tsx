import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { Icon } from "./Icon";
import { PersonActionForm } from "./PersonActionForm";

/**
 * A Follow button that turns into Following where it stood once the follow is made (a plain form
 * without JavaScript, which comes back to `back`, else this page). `onFollowed` hears of it.
 */
export function FollowInPlace({
  uid,
  back,
  onFollowed,
  formClassName,
}: {
  uid: number;
  back?: string;
  onFollowed?: () => void;
  formClassName?: string;
}) {
  const fetcher = useFetcher<{ ok: boolean; data?: { following: boolean } }>();
  const following = !!(fetcher.data?.ok && fetcher.data.data?.following);
  useEffect(() => {
    if (following) onFollowed?.();
  }, [following, onFollowed]);
  if (following)
    return (
      <span className="following" role="status">
        <Icon name="circle-check" size={18} /> Following
      </span>
    );
  return (
    <PersonActionForm
      fetcher={fetcher}
      action="/actions/follow"
      uid={uid}
      intent="follow"
      label="Follow"
      className="btn primary small"
      formClassName={formClassName}
      redirectTo={back}
    />
  );
}
