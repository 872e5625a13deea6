// Who must hear that a note or reply is gone, beyond its author's followers: as Mastodon's
// StatusReachFinder, the servers of the people it mentions and of those who replied to, quoted,
// renoted or liked it (and, for a quote, the quoted author's). Those rows go with it, so they are
// read in the delete's own batch, before its writes; the queue message then carries the people's
// ids (one per inbox) and the mentioned handles, and the consumer turns them into inboxes. This
// module imports nothing from Fedify: the request path uses it.
import type { Read } from "../../db/reads";
import { namedRead, readOne } from "../../db/reads";
import { dbFor } from "../../db/client";
import { bindingOf } from "../../db/plan";
import type { DB } from "../../env";
import { MAX_MENTIONS } from "../mentions/mentions.service";
import type { KnownInbox } from "./farewell";

/** What a deleted post's message names beside the followers (context.ts). */
export interface Reach {
  /** People elsewhere who replied to, quoted, renoted or liked it: one per inbox. */
  reach?: number[];
  /** The name@host handles its text links as mentions. */
  mentions?: string[];
  /**
   * The post's rows stay (a moderator hid it), so the consumer reads its reach itself: a hide
   * costs the moderator's request the same rows on a popular post as on a fresh one.
   */
  readHere?: boolean;
}

/** A queue message stays far below its 128 KB limit; beyond this many servers, the followers' still hear. */
const MAX_REACH = 2000;
const LINK = /<a href="\/@([^"/@]+@[^"/@]+)" class="mention">/g;

/** The name@host handles `html` links as mentions (as saving linked them: mentions.service.ts). */
export const remoteMentionNames = (html: string) =>
  [...new Set([...html.matchAll(LINK)].map((m) => m[1].toLowerCase()))].slice(0, MAX_MENTIONS);

/** One person per inbox among `people` (SQL naming user ids), if they are elsewhere and `owned` holds. */
const perInbox = (people: string, owned: string) =>
  `select min(ra.user_id) as id from remote_actors ra where ra.user_id in (${people}) and ${owned}
   group by coalesce(ra.shared_inbox, ra.inbox) limit ${MAX_REACH}`;

// ?1 the post, ?2 its author: nothing is read unless the post is theirs.
const NOTE_CONTENT = "select content from notes where id = ?1 and user_id = ?2";
const NOTE_PEOPLE = perInbox(
  `select user_id from replies where note_id = ?1
   union select user_id from notes where renote_id = ?1
   union select user_id from likes where kind = 'note' and target_id = ?1
   union select q.user_id from notes q where q.id = (select renote_id from notes where id = ?1)`,
  "exists (select 1 from notes where id = ?1 and user_id = ?2)",
);
const REPLY_CONTENT = "select content from replies where id = ?1 and user_id = ?2";
const REPLY_PEOPLE = `with recursive sub(id) as (
    select id from replies where id = ?1 and user_id = ?2
    union all select r.id from replies r join sub on r.parent_reply_id = sub.id)
  ${perInbox(
    `select user_id from replies where id in (select id from sub) and id <> ?1
     union select user_id from likes where kind = 'reply' and target_id = ?1`,
    "exists (select 1 from sub)",
  )}`;

/** The reach of `who`'s post, read before it goes (in the delete's batch). */
export function reachRead(db: DB, who: number, post: { kind: "note" | "reply"; id: number }): Read<Reach> {
  const d1 = bindingOf(db);
  const note = post.kind === "note";
  return namedRead(
    {
      content: d1.prepare(note ? NOTE_CONTENT : REPLY_CONTENT).bind(post.id, who),
      people: d1.prepare(note ? NOTE_PEOPLE : REPLY_PEOPLE).bind(post.id, who),
    },
    ({ content, people }) => ({
      reach: people.results.map((r) => Number(r.id)),
      mentions: remoteMentionNames(String(content.results[0]?.content ?? "")),
    }),
  );
}

/**
 * In the consumer: the inboxes of a message's reach (one each), the people still stored here. A
 * message whose post stayed (`readHere`) has its reach read now, from the post's rows.
 */
export async function reachedInboxes(
  d1: D1Database,
  message: Reach & { uid: number; id: number },
  kind: "note" | "reply",
): Promise<KnownInbox[]> {
  const r = message.readHere
    ? await readOne(dbFor(d1), reachRead(dbFor(d1), message.uid, { kind, id: message.id }))
    : message;
  if (!r.reach?.length && !r.mentions?.length) return [];
  const rows = await d1
    .prepare(
      `select coalesce(ra.shared_inbox, ra.inbox) as inbox, min(ra.uri) as uri, max(ra.shared_inbox is not null) as shared
       from remote_actors ra
       where ra.user_id in (select value from json_each(?1))
          or ra.user_id in (select id from users where lower(username) in (select value from json_each(?2)))
       group by coalesce(ra.shared_inbox, ra.inbox)`,
    )
    .bind(JSON.stringify(r.reach ?? []), JSON.stringify(r.mentions ?? []))
    .all<KnownInbox>();
  return rows.results;
}
