import { useHydrated } from "~/lib/hydrated";

/** Marks a form as sent by the enhanced UI, so its action answers data instead of redirecting. */
export function JsFlag() {
  return useHydrated() ? <input type="hidden" name="_js" value="1" /> : null;
}
