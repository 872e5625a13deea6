import type { FetcherWithComponents } from "@remix-run/react";
import { type FormEvent, useEffect, useRef, useState } from "react";

/**
 * Each on/off control's action and the two intents its form posts (components/social/ToggleForm)
 * and its action reads (routes/actions.*): one table, so a form and its action cannot disagree.
 */
export const TOGGLES = {
  like: { action: "/actions/like", on: "like", off: "unlike" },
  renote: { action: "/actions/renote", on: "renote", off: "undo" },
  save: { action: "/actions/bookmark", on: "save", off: "unsave" },
} as const;

/**
 * The private marks a note's menu offers (worker/features/interactions/kinds.ts), one entry each:
 * its toggle, the word the API answers its state under and the path that reads it, the menu's two
 * labels and the two toasts. components/social/MarkToggle draws each; the menu's dialog reads
 * their states with its page (lib/dialogs.server.ts).
 */
export const MARK_TOGGLES = [
  {
    of: "save",
    state: "bookmarked",
    path: "/bookmarks",
    label: { on: "Remove bookmark", off: "Bookmark" },
    toast: { on: "Bookmarked", off: "Unbookmarked" },
  },
] as const satisfies readonly {
  of: keyof typeof TOGGLES;
  state: string;
  path: string;
  label: { on: string; off: string };
  toast: { on: string; off: string };
}[];

/** The state of each private mark of one note, by its `state` word ({ bookmarked: true }). */
export type Marks = Record<string, boolean>;

/** Actions whose answer carries the new state, so no loader need run again (lib/revalidate.ts). */
export const ANSWERED_ACTIONS = new Set<string>([
  TOGGLES.like.action,
  ...MARK_TOGGLES.map((m) => TOGGLES[m.of].action),
]);

/**
 * A toggle (like, renote, bookmark) that sends one request at a time (issue 21, the like race).
 *
 * A fetcher aborts its request in flight when it is submitted again, but an aborted request may
 * still reach the server, and in any order: Like, Unlike, Like clicked quickly could leave the
 * server unliked while the card said "Unlike 1". So with JavaScript a click only changes the state
 * the person wants; a request goes out when none is in flight, and when it comes back and the
 * server's answer is not the wanted state, one more goes out with the wanted intent (intents are
 * explicit, "like" or "unlike", never "flip", so a repeat is harmless). Without JavaScript the
 * form posts as it is.
 *
 * `on` is the state the server last told this page; `answered` reads a reply's state, or
 * undefined for a failure. After a failure nothing more is sent; `keepOnFailure` keeps the wanted
 * state on show (spec 4: a failed like is not rolled back), otherwise the card shows `on` again.
 */
export function useSerialToggle<D>(
  fetcher: FetcherWithComponents<D>,
  on: boolean,
  answered: (data: D) => boolean | undefined,
  keepOnFailure = false,
) {
  const [want, setWant] = useState<boolean | null>(null);
  const wanted = useRef<boolean | null>(null);
  const form = useRef<HTMLFormElement | null>(null);
  // The request in flight: the answer the fetcher held when it was sent, and whether the fetcher
  // has been seen busy since. Router updates run in a transition, so a quick request may never
  // render as busy: a new answer is what marks it done.
  const flight = useRef<{ before: D | undefined; busy: boolean } | null>(null);

  const send = (intent: boolean) => {
    const el = form.current;
    if (!el) return;
    const data = new FormData(el);
    data.set("intent", String(el.dataset[intent ? "on" : "off"]));
    flight.current = { before: fetcher.data, busy: false };
    fetcher.submit(data, { method: "post", action: el.getAttribute("action") ?? undefined });
  };

  useEffect(() => {
    const f = flight.current;
    if (!f) return;
    if (fetcher.state !== "idle") {
      f.busy = true;
      return;
    }
    const fresh = fetcher.data !== f.before;
    if (!fresh && !f.busy) return; // not started yet
    flight.current = null;
    const server = fresh && fetcher.data !== undefined ? answered(fetcher.data) : undefined;
    const w = wanted.current;
    if (server === undefined) {
      if (!keepOnFailure) {
        wanted.current = null;
        setWant(null);
      }
    } else if (w !== null && w !== server) send(w);
    else {
      wanted.current = null;
      setWant(null);
    }
  }, [fetcher.state, fetcher.data]);

  const shown = want ?? on;
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    form.current = e.currentTarget;
    // From the ref, not `shown`: two clicks may come before the next render.
    const next = !(wanted.current ?? on);
    wanted.current = next;
    setWant(next);
    if (!flight.current) send(next);
  };
  return { shown, onSubmit };
}
