import { useEffect, useState } from "react";

/** True once React runs in the browser: forms then ask for data instead of a redirect. */
export function useHydrated() {
  const [h, setH] = useState(false);
  useEffect(() => setH(true), []);
  return h;
}
