// A person's own block of a whole server, as Mastodon's AccountDomainBlock and its
// AfterBlockDomainFromAccountService: the block, the follows between the person and that server's
// people gone both ways (counters moved by the rows removed, in the same batch), pending follow
// requests and the notices they sent gone. While it holds, the one visibility rule
// (visibility.ts domainBlockedBy) keeps that server's people out of the person's lists, the follow
// batch refuses a follow either way, and no notice from there is written. The server is matched
// exactly (Mastodon matches an account's domain, not its parents). Every door (/v1 and the pages,
// the Mastodon API, the CSV import) blocks through domain-block.action.ts, which also tells the
// removed followers' server.
import type { DB } from "../../env";
import { bindingOf } from "../../db/plan";
import { namedRead, readOne } from "../../db/reads";
import { AppError, notFound } from "../../lib/errors";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { normalHost } from "../federation/domains";

const BAD = "Please enter a server's domain.";

/** The host a person typed (a domain, an address or a link), or a 422 saying what is wrong. */
export function hostOf(input: string, own: string): string {
  const host = normalHost(input);
  if (!host) throw new AppError(422, "invalid_input", BAD, { domain: BAD });
  if (host === own.toLowerCase()) throw new AppError(422, "invalid_input", "You cannot block this server itself.");
  return host;
}

/** The people of `?2` known here (remote_actors_host_idx). */
const THEIRS = "(select user_id from remote_actors where host = ?2)";

/**
 * Blocks `host` for `me` in one batch; answers the block's id (the same on a repeat, which changes
 * nothing more: the follows and notices it cut cannot have come back while it held) and the
 * followers from there it removed, whose servers are told (domain-block.action.ts).
 */
export async function blockServer(db: DB, me: number, host: string): Promise<{ id: number; followers: number[] }> {
  const d1 = bindingOf(db);
  const mine = `(f.follower_id = ?1 and f.followee_id in ${THEIRS}) or (f.followee_id = ?1 and f.follower_id in ${THEIRS})`;
  return readOne(
    db,
    namedRead(
      {
        block: d1
          .prepare("insert into user_domain_blocks (user_id, host) values (?1, ?2) on conflict do nothing")
          .bind(me, host),
        // Read before they go: the batch's later statements remove them.
        followers: d1
          .prepare(`select follower_id as id from follows where followee_id = ?1 and follower_id in ${THEIRS}`)
          .bind(me, host),
        // Counters first, from the rows about to go: theirs by one each, mine by how many.
        counters: d1
          .prepare(
            `update users set
           follower_num = follower_num - (case when id = ?1 then (select count(*) from follows f where f.followee_id = ?1 and f.follower_id in ${THEIRS}) else (select count(*) from follows f where f.follower_id = ?1 and f.followee_id = users.id) end),
           following_num = following_num - (case when id = ?1 then (select count(*) from follows f where f.follower_id = ?1 and f.followee_id in ${THEIRS}) else (select count(*) from follows f where f.followee_id = ?1 and f.follower_id = users.id) end)
         where id = ?1 or id in (select f.follower_id from follows f where ${mine} union select f.followee_id from follows f where ${mine})`,
          )
          .bind(me, host),
        theirFollows: d1
          .prepare(`delete from follows where followee_id = ?1 and follower_id in ${THEIRS}`)
          .bind(me, host),
        myFollows: d1.prepare(`delete from follows where follower_id = ?1 and followee_id in ${THEIRS}`).bind(me, host),
        requests: d1
          .prepare(
            `delete from follow_requests where (followee_id = ?1 and follower_id in ${THEIRS}) or (follower_id = ?1 and followee_id in ${THEIRS})`,
          )
          .bind(me, host),
        // The badge follows the rows (the notifications_unread_* triggers).
        notices: d1.prepare(`delete from notifications where user_id = ?1 and actor_id in ${THEIRS}`).bind(me, host),
        row: d1.prepare("select id from user_domain_blocks where user_id = ?1 and host = ?2").bind(me, host),
      },
      ({ row, followers }) => ({
        id: (row.results[0] as { id: number }).id,
        followers: (followers.results as { id: number }[]).map((f) => f.id),
      }),
    ),
  );
}

/** Lifts the person's block of `host` (a repeat is a no-op; follows cut stay cut, as on Mastodon). */
export async function unblockServer(db: DB, me: number, input: string) {
  const host = normalHost(input);
  if (!host) throw notFound("Not found");
  await bindingOf(db).prepare("delete from user_domain_blocks where user_id = ?1 and host = ?2").bind(me, host).run();
  return { domain: host, blocking: false };
}

export interface BlockedServer {
  id: number;
  domain: string;
  created_at: number;
}

/**
 * A page of the servers `me` blocked, newest first along user_domain_blocks_user_idx: by the spec's
 * page and cursor (the pages, /v1), or below Mastodon's max_id and above its since_id / min_id.
 */
export function serversRead(
  db: DB,
  me: number,
  q: { page: number; cursor?: string; maxId?: number; sinceId?: number; minId?: number },
  size = PAGE_SIZE,
) {
  const { after, offset } = startOf(q);
  const below = after?.id ?? q.maxId ?? Number.MAX_SAFE_INTEGER;
  const above = q.minId ?? q.sinceId ?? 0;
  // min_id: the page just above it (walking upward), so those rows are taken oldest first.
  const order = q.minId !== undefined ? "asc" : "desc";
  return namedRead(
    {
      rows: bindingOf(db)
        .prepare(
          `select id, host as domain, created_at from user_domain_blocks where user_id = ?1 and id < ?2 and id > ?3
           order by id ${order} limit ?4 offset ?5`,
        )
        .bind(me, below, above, size + 1, offset),
    },
    ({ rows }) => {
      const found = rows.results as unknown as BlockedServer[];
      const page = pageOf(
        order === "asc" ? found.slice(0, size).reverse() : found,
        q.page,
        (r) => ({ at: r.id, id: r.id }),
        size,
      );
      return { domains: page.items, paginator: page.paginator, cursor: page.cursor, more: found.length > size };
    },
  );
}

export const serversOf = (...args: Parameters<typeof serversRead>) => readOne(args[0], serversRead(...args));
