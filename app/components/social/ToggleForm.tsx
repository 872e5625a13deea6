import { type FetcherWithComponents, useLocation } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { TOGGLES } from "~/lib/toggle";
import { JsFlag } from "../JsFlag";

/** A <details> menu closes once one of its items is used. */
export const closeMenu = (e: { currentTarget: Element }) => e.currentTarget.closest("details")?.removeAttribute("open");

/**
 * The form of an on/off control (`of`): it posts the intent that changes what is shown for `id`
 * (and its kind `t` when given: without it the action assumes a note), one request at a time
 * through the toggle (lib/toggle.ts), and without JavaScript as a plain form that comes back to
 * `back` (this page by default). A menu's item also closes its menu.
 */
export function ToggleForm<D>({
  of,
  fetcher,
  toggle,
  id,
  t,
  back,
  inMenu,
  className,
  children,
}: {
  fetcher: FetcherWithComponents<D>;
  toggle: { shown: boolean; onSubmit: (e: FormEvent<HTMLFormElement>) => void };
  of: keyof typeof TOGGLES;
  id: number;
  t?: string;
  back?: string;
  inMenu?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const location = useLocation();
  const { action, on, off } = TOGGLES[of];
  return (
    <fetcher.Form
      method="post"
      action={action}
      className={className}
      data-on={on}
      data-off={off}
      onSubmit={(e) => {
        if (inMenu) closeMenu(e);
        toggle.onSubmit(e);
      }}
    >
      <input type="hidden" name="id" value={id} />
      {t && <input type="hidden" name="t" value={t} />}
      <input type="hidden" name="redirectTo" value={back ?? `${location.pathname}${location.search}`} />
      <input type="hidden" name="intent" value={toggle.shown ? off : on} />
      <JsFlag />
      {children}
    </fetcher.Form>
  );
}
