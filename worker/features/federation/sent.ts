// The ids of the activities NoteX sent that may be undone (Follow, Like, Block, Announce), kept
// until their Undo: GoToSocial and Pleroma match an Undo to what it undoes by the embedded
// activity's id, so the Undo must carry the original, id and all. Kept in fed_kv under NoteX's
// own prefix with no expiry (a follow may be undone years later); the Undo takes the row away.
// Beside them, the id of each Follow a follower elsewhere sent ("follower"): a Reject that ends
// that follow later names it, as Mastodon's RejectFollowSerializer names the follow's uri.
import type { Env } from "../../env";
import type { RowKindName } from "../interactions/counted";

/** A follow, a block, an announce, or a counted interaction with a table of its own (a like); a follow received. */
export type SentKind = "follow" | RowKindName | "block" | "announce" | "follower";

const keyOf = (kind: SentKind, uid: number, target: string) => JSON.stringify(["notex", "sent", kind, uid, target]);

/** Keeps the id an activity went out with. */
export const rememberSent = (env: Env, kind: SentKind, uid: number, target: string, id: URL) =>
  env.DB.prepare(
    "insert into fed_kv (key, value, expires_at) values (?1, ?2, null) on conflict(key) do update set value = excluded.value",
  )
    .bind(keyOf(kind, uid, target), JSON.stringify(id.href))
    .run();

/** The id it went out with, taken away (the Undo is the last use); null when none was kept. */
export async function takeSent(env: Env, kind: SentKind, uid: number, target: string): Promise<URL | null> {
  const row = await env.DB.prepare("delete from fed_kv where key = ? returning value")
    .bind(keyOf(kind, uid, target))
    .first<{ value: string }>();
  const href = row ? (JSON.parse(row.value) as unknown) : null;
  return typeof href === "string" && URL.canParse(href) ? new URL(href) : null;
}

/** The ids kept for `uid` toward each of `targets`, taken away in one statement (by target). */
export async function takeAllSent(env: Env, kind: SentKind, uid: number, targets: string[]): Promise<Map<string, URL>> {
  const keys = targets.map((t) => keyOf(kind, uid, t));
  const { results } = await env.DB.prepare(
    "delete from fed_kv where key in (select value from json_each(?1)) returning key, value",
  )
    .bind(JSON.stringify(keys))
    .all<{ key: string; value: string }>();
  const kept = new Map<string, URL>();
  for (const row of results) {
    const href = JSON.parse(row.value) as unknown;
    if (typeof href === "string" && URL.canParse(href))
      kept.set(String((JSON.parse(row.key) as unknown[])[4]), new URL(href));
  }
  return kept;
}
