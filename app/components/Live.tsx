// Pages that move by themselves (JavaScript on, signed in): the notification badge counts up, the
// feeds say "N new notes" (a click shows them, the list stays where it was loaded), an open note
// page shows new replies and counts. Without JavaScript none of this exists: the pages stay plain
// documents. The socket's module is loaded after the page is up (lib/live.client.ts).
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useLocation, useMatches, useRevalidator } from "@remix-run/react";
import type { LiveConnection, LiveFrame } from "~/lib/live.client";

/** What the page shows wants from the socket, beside the person's own stream. */
function streamsFor(pathname: string, search: string): string[] {
  const note = /^\/[^/]+\/note\/(\d+)$/.exec(pathname);
  if (note) return [`note|${note[1]}`];
  if (pathname === "/" && new URLSearchParams(search).get("tab") !== "following") return ["public:local"];
  return [];
}

const feedOf = (pathname: string, search: string) =>
  pathname !== "/" ? null : new URLSearchParams(search).get("tab") === "following" ? "user" : "public:local";

/** Who a frame's status, notice or counters are by, and when it was made. */
const about = (f: LiveFrame) => {
  const it = JSON.parse(f.payload) as { account?: { id?: string }; by?: number; created_at?: string };
  return { author: it.account?.id ?? String(it.by ?? ""), at: Date.parse(it.created_at ?? "") || 0 };
};

export function useLive(uid: number | null): { notices: number; pill: ReactNode } {
  const location = useLocation();
  const revalidator = useRevalidator();
  const [notices, setNotices] = useState(0);
  const [fresh, setFresh] = useState(0);
  const live = useRef<LiveConnection | null>(null);
  const here = useRef({ pathname: location.pathname, search: location.search });
  here.current = { pathname: location.pathname, search: location.search };
  const reload = useRef(revalidator.revalidate);
  reload.current = revalidator.revalidate;

  // Freshly loaded data carries the true counts again.
  // Anything made before the page's data was read is already in it: only later frames count.
  const loaded = useMatches().at(-1)?.data;
  const loadedAt = useRef(Date.now());
  useEffect(() => {
    loadedAt.current = Date.now();
    if (loaded) setNotices(0);
  }, [loaded]);
  useEffect(() => setFresh(0), [location.pathname, location.search]);

  useEffect(() => {
    if (!uid) return;
    let gone = false;
    const onFrame = (f: LiveFrame) => {
      const { pathname, search } = here.current;
      // The open thread moved: read it again, unless this person moved it (their page shows it already).
      if (f.stream[0] === "note") return about(f).author === String(uid) ? undefined : reload.current();
      if (f.event !== "notification" && f.event !== "update") return;
      const { author, at } = about(f);
      if (at <= loadedAt.current) return;
      if (f.event === "notification") {
        if (pathname === "/notifications") reload.current();
        else setNotices((n) => n + 1);
      } else if (f.stream[0] === feedOf(pathname, search) && author !== String(uid)) setFresh((n) => n + 1);
    };
    import("~/lib/live.client").then(({ connectLive }) => {
      if (gone) return;
      live.current = connectLive(onFrame, () => reload.current());
      live.current.follow(streamsFor(here.current.pathname, here.current.search));
    });
    return () => {
      gone = true;
      live.current?.stop();
      live.current = null;
    };
  }, [uid]);

  useEffect(() => {
    live.current?.follow(streamsFor(location.pathname, location.search));
  }, [location.pathname, location.search]);

  const pill =
    fresh > 0 ? (
      <button
        type="button"
        className="live-pill"
        onClick={() => {
          setFresh(0);
          reload.current();
          window.scrollTo({ top: 0, behavior: "smooth" });
        }}
      >
        {fresh === 1 ? "1 new note" : `${fresh} new notes`}
      </button>
    ) : null;
  return { notices, pill };
}

/**
 * useLive as a component, for the root to load with a signed-in page only: it shows the pill where
 * it stands and hands the badge's count up.
 */
export default function LiveWatch({ uid, onNotices }: { uid: number; onNotices: (n: number) => void }) {
  const { notices, pill } = useLive(uid);
  useEffect(() => onNotices(notices), [notices, onNotices]);
  return <>{pill}</>;
}
