import { useEffect, useState } from "react";
import { relativeTime } from "~/lib/time";

/**
 * A relative time ("5m"), as the server rendered it, then counted again from the browser's clock
 * once hydrated: a page from the edge cache would otherwise show times as old as its copy.
 */
export function Ago({ ms, className }: { ms: number; className?: string }) {
  const [now, setNow] = useState<number>();
  useEffect(() => setNow(Date.now()), []);
  return (
    <time className={className} dateTime={new Date(ms).toISOString()} suppressHydrationWarning>
      {relativeTime(ms, now)}
    </time>
  );
}
