// Where sockets and events live: the hubs by name, sharded by account. No runtime import here, so
// request code (and the pages' server build) can name a hub without loading the Durable Object.
import type { Env } from "../../env";

/** How many hubs hold sockets; changing it re-homes everyone (their apps reconnect). */
export const SHARDS = 8;
/**
 * How often a hub checks that its sockets' sessions are still live: a safety net only, since the
 * places that end a session tell the hub at once (lib/sessions.ts).
 */
export const RECHECK_MS = 60 * 60_000;
/** Internal headers from the worker's upgrade routes to the hub (not reachable from outside). */
export const INFO_HEADER = "x-live-socket";
export const PROTOCOL_HEADER = "x-live-protocol";

export const shardOf = (uid: number) => uid % SHARDS;
const hubNamed = (env: Pick<Env, "LIVE">, name: string) => {
  if (!env.LIVE) throw new Error("LIVE binding missing");
  return env.LIVE.get(env.LIVE.idFromName(name));
};
/** The hub holding `uid`'s sockets. */
export const hubOf = (env: Pick<Env, "LIVE">, uid: number) => hubNamed(env, `shard:${shardOf(uid)}`);
export const hubAt = (env: Env, shard: number) => hubNamed(env, `shard:${shard}`);
/** Where an author's events are worked out (no sockets there: a post never waits on a busy shard). */
export const publisherAt = (env: Env, n: number) => hubNamed(env, `fan:${n}`);
export const publisherOf = (env: Env, uid: number) => publisherAt(env, shardOf(uid));

/** One event for one shard's sockets. */
export interface Delivery {
  event: string;
  payload: string;
  /** People (in this shard) whose own streams get it: user, and user:notification for notifications. */
  to?: number[];
  /**
   * A notification's own id for each person in `to`, in order: the payload, rendered once for all of
   * them, is sent to each with theirs (noticeFor).
   */
  ids?: number[];
  /** Stream keys a socket may hold ("public", "hashtag|rust", "note|12"). */
  streams?: string[];
  /** Every hashtag subscription matches too (a delete: the post's tags went with it). */
  anyTag?: boolean;
  /** People the streams above must not reach: they block or mute the author, or are blocked. */
  skip?: number[];
}

/** A notification rendered once (`payload`, without its id), as one person's: Mastodon's id and group_key lead. */
export const noticeFor = (payload: string, id: number) =>
  `{"id":"${id}","group_key":"ungrouped-${id}"${payload === "{}" ? "" : ","}${payload.slice(1)}`;
