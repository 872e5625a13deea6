import { type FetcherWithComponents, useLocation } from "@remix-run/react";
import { JsFlag } from "./JsFlag";

/**
 * A one-button form about a person (follow, mute, block…): posts their id and the intent to an
 * action, which without JavaScript brings the browser back to this page.
 */
export function PersonActionForm({
  fetcher,
  action,
  uid,
  intent,
  label,
  className,
  formClassName,
  redirectTo,
}: {
  fetcher: FetcherWithComponents<unknown>;
  action: string;
  uid: number;
  intent: string;
  label: string;
  className?: string;
  formClassName?: string;
  /** Where the form returns without JavaScript: this page unless said. */
  redirectTo?: string;
}) {
  const location = useLocation();
  return (
    <fetcher.Form method="post" action={action} className={formClassName}>
      <input type="hidden" name="uid" value={uid} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={redirectTo ?? `${location.pathname}${location.search}`} />
      <JsFlag />
      <button type="submit" className={className}>
        {label}
      </button>
    </fetcher.Form>
  );
}
