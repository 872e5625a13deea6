// Moderators' domain blocks (Mastodon's domain block with severity "suspend"): nothing is accepted
// from a blocked server (its inbox deliveries answer 403 before any signature is checked, so none
// of its documents is fetched), nothing is delivered to it (the queue consumer drops its
// messages), the follows between its people and ours are cut, and its people here are suspended,
// so the one visibility rule (worker/features/safety/visibility.ts) takes them out of every
// timeline, list and notification with no new condition in any query. Lifting the block
// unsuspends exactly the accounts it suspended (those whose suspended_at is the block's
// created_at, as Mastodon's UnblockDomainService does); a person suspended on their own stays so.
// No Fedify import: the API and the inbox's first check use it.
import { AppError, notFound } from "../../lib/errors";

/** A host as blocks are kept: lower case, port kept, no scheme, path or user part. */
export function normalHost(input: string): string | null {
  let s = input.trim().toLowerCase();
  if (!s) return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//.test(s)) s = `http://${s}`;
  try {
    const url = new URL(s);
    return /^[a-z0-9.-]+(:\d+)?$/.test(url.host) && url.hostname.includes(".") ? url.host : null;
  } catch {
    return null;
  }
}

/**
 * The blocks that could cover `host`, as Mastodon's: the host itself and each domain it is under
 * ("a.b.evil.example" → itself, "b.evil.example", "evil.example"), so blocking a domain blocks
 * all its subdomains. A port is kept only on the full host (a block names a host, or host:port).
 */
export function coveringHosts(host: string): string[] {
  const full = host.toLowerCase();
  const labels = full.replace(/:\d+$/, "").split(".");
  const parents = labels.slice(1, -1).map((_, i) => labels.slice(i + 1).join("."));
  return [...new Set([full, labels.join("."), ...parents])];
}

/** The hosts under a block, read once per queue batch. */
export async function blockedHosts(db: D1Database): Promise<Set<string>> {
  const { results } = await db.prepare("select host from domain_blocks").all<{ host: string }>();
  return new Set(results.map((r) => r.host));
}

/** Whether `host` is under one of `blocked` (blockedHosts). */
export const blockedIn = (blocked: Set<string>, host: string) => coveringHosts(host).some((h) => blocked.has(h));

/** Whether a host is blocked, itself or a domain it is under: primary-key lookups, one statement. */
export async function isBlockedHost(db: D1Database, host: string) {
  const hosts = coveringHosts(host);
  const row = await db
    .prepare(`select 1 as x from domain_blocks where host in (${hosts.map(() => "?").join(", ")}) limit 1`)
    .bind(...hosts)
    .first();
  return !!row;
}

/** The people of a blocked domain here: its own host and every subdomain of it. */
const THEIRS = "(select user_id from remote_actors where host = ?1 or host like '%.' || ?1)";

/**
 * Blocks `host` in one batch: the block, every follow between its people and anyone here gone
 * with both sides' counters moved by the rows removed (counted before the delete, in the same
 * batch), its people suspended at the block's time, and the audit log's row. Those statements run
 * before the block's row, while no block of `host` exists: a repeat changes nothing.
 */
export async function blockDomain(db: D1Database, moderator: number, input: string, reason: string, own: string) {
  const host = normalHost(input);
  if (!host)
    throw new AppError(422, "invalid_input", "Please enter a server's domain.", {
      domain: "Please enter a server's domain.",
    });
  if (host === own.toLowerCase()) throw new AppError(422, "invalid_input", "You cannot block this server itself.");
  const now = Date.now();
  const cut = `(f.follower_id in ${THEIRS} or f.followee_id in ${THEIRS})`;
  const fresh = "not exists(select 1 from domain_blocks where host = ?1)";
  await db.batch([
    db
      .prepare(
        `update users set
           follower_num = follower_num - (select count(*) from follows f where f.followee_id = users.id and ${cut}),
           following_num = following_num - (select count(*) from follows f where f.follower_id = users.id and ${cut})
         where ${fresh} and id in (select f.followee_id from follows f where ${cut} union select f.follower_id from follows f where ${cut})`,
      )
      .bind(host),
    db.prepare(`delete from follows where ${fresh} and follower_id in ${THEIRS}`).bind(host),
    db.prepare(`delete from follows where ${fresh} and followee_id in ${THEIRS}`).bind(host),
    db
      .prepare(`update users set suspended_at = ?2 where ${fresh} and suspended_at is null and id in ${THEIRS}`)
      .bind(host, now),
    db
      .prepare(
        `insert into moderation_log (moderator_id, kind, target_id, owner_id, action, reason, created_at)
         select ?3, 'domain', 0, 0, 'block_domain', ?4, ?2 where ${fresh}`,
      )
      .bind(host, now, moderator, `${host}: ${reason}`),
    db
      .prepare(
        "insert into domain_blocks (host, reason, created_by, created_at) values (?1, ?2, ?3, ?4) on conflict do nothing",
      )
      .bind(host, reason, moderator, now),
  ]);
  return { domain: host, blocked: true };
}

/** Lifts a block: its row goes, and the people it suspended (and only they) are active again. */
export async function unblockDomain(db: D1Database, moderator: number, input: string) {
  const host = normalHost(input);
  const row = host
    ? await db.prepare("select created_at from domain_blocks where host = ?").bind(host).first<{ created_at: number }>()
    : null;
  if (!host || !row) throw notFound("Not found");
  await db.batch([
    db
      .prepare(`update users set suspended_at = null where suspended_at = ?2 and id in ${THEIRS}`)
      .bind(host, row.created_at),
    db.prepare("delete from domain_blocks where host = ?").bind(host),
    db
      .prepare(
        "insert into moderation_log (moderator_id, kind, target_id, owner_id, action, reason, created_at) values (?, 'domain', 0, 0, 'unblock_domain', ?, ?)",
      )
      .bind(moderator, host, Date.now()),
  ]);
  return { domain: host, blocked: false };
}
