import { useFetchers, useMatches, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { isAnswered } from "~/lib/revalidate";

/**
 * A write's page reload that the router dropped, done again.
 *
 * An answered action (a like: lib/revalidate.ts) lands with no loader run. When it lands while
 * another write's reload is on its way, the router takes it for the newer data and gives that
 * reload up (a fetcher's reload is aborted when a later one lands), so the page went on showing
 * what it showed before the write: a reply published while a like was on its way never appeared.
 * So the page's data is noted when a write's reload starts, and if the write settles with no
 * route's data new, the page reads itself again. A refused write (`ok: false`) changed nothing
 * and is not reloaded.
 */
export default function ReloadDroppedWrites() {
  const fetchers = useFetchers();
  const data = useMatches().map((m) => m.data);
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const reloading = useRef(new Map<string, unknown[]>());
  useEffect(() => {
    const now = new Set<string>();
    for (const f of fetchers) {
      if (f.state !== "loading" || !f.formAction || !f.formMethod || f.formMethod.toLowerCase() === "get") continue;
      if (isAnswered(f.formAction)) continue;
      if ((f.data as { ok?: boolean } | undefined)?.ok === false) continue;
      now.add(f.key);
      if (!reloading.current.has(f.key)) reloading.current.set(f.key, data);
    }
    for (const [key, before] of reloading.current) {
      if (now.has(key)) continue;
      reloading.current.delete(key);
      const unchanged = before.length === data.length && before.every((d, i) => d === data[i]);
      if (unchanged && navigation.state === "idle" && revalidator.state === "idle") revalidator.revalidate();
    }
  });
  return null;
}
