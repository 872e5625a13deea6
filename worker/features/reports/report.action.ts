// Report: the one function every door calls (/v1 and the pages, a Mastodon app's report, a remote
// server's Flag). Each reported item joins the moderation queue once; the author is blocked when
// asked for, as any block is (so a block of someone elsewhere reaches their server); and the
// report is forwarded, when asked for, only to a server whose posts it names.
import type { ContentKind } from "../content/content";
import { type ActionContext, deliver } from "../federation/federate";
import { blockAction } from "../safety/block.action";
import { forwardOf, report } from "./reports.service";

export interface ReportAsk {
  /** The reporter's own words for the moderators. */
  note: string;
  /** Also block the content's author (as Mastodon's and Bluesky's report forms offer). */
  block?: boolean;
  /** Forward it to the reported posts' server (the web's "Forward to <host>", an app's `forward`). */
  forward?: boolean;
}

export async function reportAction(
  ctx: ActionContext,
  who: number,
  items: { kind: ContentKind; id: number }[],
  reason: number,
  ask: ReportAsk,
) {
  const stored = [];
  for (const item of items)
    stored.push({ ...item, ...(await report(ctx.db, who, item.kind, item.id, reason, { note: ask.note })) });
  // One's own content is never a reason to block oneself.
  const authors = new Set(stored.map((s) => s.author).filter((a) => a !== 0 && a !== who));
  if (ask.block) for (const author of authors) await blockAction(ctx, who, author, true);
  const flag = ask.forward
    ? forwardOf(
        stored.filter((s) => s.remote),
        reason,
        ask.note,
      )
    : null;
  if (flag) await deliver(ctx, flag);
  return { created: stored.some((s) => s.created), blocking: !!ask.block && authors.size > 0, forwarded: !!flag };
}
