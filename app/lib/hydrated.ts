import { useEffect, useLayoutEffect, useState } from "react";

/** True once React runs in the browser: forms then ask for data instead of a redirect. */
export function useHydrated() {
  const [h, setH] = useState(false);
  useEffect(() => setH(true), []);
  return h;
}

/** A layout effect in the browser (before paint, before passive effects); nothing on the server. */
export const useIsoLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

let hydrated = false;
/** False while the server's first page hydrates (render what the server rendered), then true. */
export const booted = () => hydrated;
/** Called once the app has hydrated (root layout). */
export function markBooted() {
  hydrated = true;
}
