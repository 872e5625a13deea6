// The rows of a Mastodon CSV import (mastodon-csv.ts), each done through the one action every
// other door calls: a follow through followAction, a block or mute through block.action.ts, a
// blocked server through domain-block.action.ts, a bookmark as the bookmark button makes it. An address someone elsewhere has is looked up here
// (WebFinger, then the actor), never in the upload's request. Each is idempotent: a follow, block,
// mute or bookmark made twice is one.
import { AppError } from "../../lib/errors";
import type { ActionContext } from "../federation/federate";
import { followAction } from "../follows/follow.action";
import { mark } from "../interactions/interactions.service";
import { BOOKMARK } from "../interactions/kinds";
import { blockAction, muteAction } from "../safety/block.action";
import { blockServerAction } from "../safety/domain-block.action";
import { hostOf, unblockServer } from "../safety/domain-blocks.service";
import type { ImportKind, JobInfo, RowResult } from "./kinds";
import type { CsvRow } from "./mastodon-csv";

const log = (line: Record<string, unknown>) => console.error(JSON.stringify(line));

/** The person an address names: someone here or already known by it, else looked up on their server. */
async function accountOf(ctx: ActionContext, address: string): Promise<number | null> {
  const known = await ctx.env.DB.prepare("select id from users where lower(username) = lower(?1)")
    .bind(address.includes("@") && address.endsWith(`@${new URL(ctx.origin).host}`) ? address.split("@")[0] : address)
    .first<{ id: number }>();
  if (known || !address.includes("@")) return known?.id ?? null;
  const { resolveHandle } = await import("../federation/lookup");
  try {
    return await resolveHandle(ctx.env, ctx.origin, address);
  } catch (error) {
    // Their server is down, slow or answers nonsense: this row is not imported, with why.
    log({ t: "imports.lookup", address, error: String(error) });
    return null;
  }
}

/** An action's refusal (blocked, not found…) as the row's reason; any other fault goes up to be retried. */
async function refusalOf(work: () => Promise<unknown>): Promise<string | null> {
  try {
    await work();
    return null;
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return error.message;
    throw error;
  }
}

/** A kind whose rows name accounts, done by `act`. */
function accounts(act: (ctx: ActionContext, who: number, target: number, row: CsvRow) => Promise<unknown>) {
  return async (ctx: ActionContext, job: JobInfo, data: unknown): Promise<RowResult> => {
    const row = data as CsvRow;
    const target = await accountOf(ctx, row.item);
    if (target === null) return { ok: false, reason: "no such account could be found" };
    if (target === job.userId) return { ok: false, reason: "that is your own account" };
    const refused = await refusalOf(() => act(ctx, job.userId, target, row));
    return refused ? { ok: false, reason: refused } : { ok: true, target, targetKind: "user" };
  };
}

/** Overwrite: what the person has of `table` that the file did not name, undone by `undo`, at most `limit`. */
function pruneAccounts(
  table: string,
  owner: string,
  other: string,
  undo: (ctx: ActionContext, who: number, target: number) => Promise<unknown>,
) {
  return async (ctx: ActionContext, job: JobInfo, limit: number) => {
    const { results } = await ctx.env.DB.prepare(
      `select ${other} as id from ${table} where ${owner} = ?1 and ${other} not in
       (select target from import_rows where job_id = ?2 and target_kind = 'user' and target is not null) limit ?3`,
    )
      .bind(job.userId, job.id, limit)
      .all<{ id: number }>();
    for (const { id } of results) await refusalOf(() => undo(ctx, job.userId, id));
    return results.length;
  };
}

export const following: ImportKind = {
  // Show boosts, notify and languages have no place in a NoteX follow: the follow alone is made.
  row: accounts((ctx, who, target) => followAction(ctx, who, target, true)),
  prune: pruneAccounts("follows", "follower_id", "followee_id", (ctx, who, target) =>
    followAction(ctx, who, target, false),
  ),
};

export const blocks: ImportKind = {
  row: accounts((ctx, who, target) => blockAction(ctx, who, target, true)),
  prune: pruneAccounts("blocks", "blocker_id", "blocked_id", (ctx, who, target) =>
    blockAction(ctx, who, target, false),
  ),
};

export const mutes: ImportKind = {
  // A NoteX mute always hides the muted person's notifications: "Hide notifications" false is muted the same.
  row: accounts((ctx, who, target) => muteAction(ctx, who, target, true)),
  prune: pruneAccounts("mutes", "muter_id", "muted_id", (ctx, who, target) => muteAction(ctx, who, target, false)),
};

export const bookmarks: ImportKind = {
  async row(ctx, job, data) {
    const { item } = data as CsvRow;
    const { resolvePostUrl } = await import("../federation/lookup");
    const post = await resolvePostUrl(ctx.env, ctx.origin, item).catch((error) => {
      log({ t: "imports.lookup", url: item, error: String(error) });
      return null;
    });
    if (!post) return { ok: false, reason: "no such post could be found" };
    const refused = await refusalOf(() => mark(BOOKMARK, ctx.db, job.userId, post.kind, post.id, true));
    return refused ? { ok: false, reason: refused } : { ok: true, target: post.id, targetKind: post.kind };
  },
  async prune(ctx, job, limit) {
    const { results } = await ctx.env.DB.prepare(
      `select kind, target_id as id from bookmarks b where user_id = ?1 and kind in ('note', 'reply') and not exists
       (select 1 from import_rows r where r.job_id = ?2 and r.target_kind = b.kind and r.target = b.target_id) limit ?3`,
    )
      .bind(job.userId, job.id, limit)
      .all<{ kind: "note" | "reply"; id: number }>();
    for (const b of results) await mark(BOOKMARK, ctx.db, job.userId, b.kind, b.id, false);
    return results.length;
  },
};

export const domainBlocks: ImportKind = {
  async row(ctx, job, data) {
    const { item } = data as CsvRow;
    let host: string;
    try {
      host = hostOf(item, new URL(ctx.origin).host);
    } catch (error) {
      if (error instanceof AppError) return { ok: false, reason: error.message };
      throw error;
    }
    // The block's id is what an overwrite keeps (import_rows.target).
    const { id } = await blockServerAction(ctx, job.userId, host);
    return { ok: true, target: id, targetKind: "domain" };
  },
  async prune(ctx, job, limit) {
    const { results } = await ctx.env.DB.prepare(
      `select host from user_domain_blocks where user_id = ?1 and id not in
       (select target from import_rows where job_id = ?2 and target_kind = 'domain' and target is not null) limit ?3`,
    )
      .bind(job.userId, job.id, limit)
      .all<{ host: string }>();
    for (const { host } of results) await unblockServer(ctx.db, job.userId, host);
    return results.length;
  },
};
