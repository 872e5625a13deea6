// The people elsewhere a note or reply mentions: its text links them as /@name@host (the save does
// that for people stored here, mentions.service.ts; the consumer for the others, after finding them
// on their servers: link-mentions.ts), and the activity carries a Mention tag for each, has them in
// cc, and is delivered to their inboxes (Mention tags are what make a notification on Mastodon).
// Reads only: the object dispatcher (federation.ts) uses them, so nothing here fetches.
import { localSql } from "../users/locality";
import { remoteMentionNames } from "./reach";

export interface MentionedRemote {
  username: string;
  uri: string;
  inbox: string;
  shared_inbox: string | null;
}

/** As many as a note notifies here (mentions.service.ts MAX_MENTIONS). */
export const MAX_MENTIONED = 10;

/** The stored people elsewhere that `html` links as mentions (one indexed query; none without any). */
export async function mentionedRemotes(db: D1Database, html: string): Promise<MentionedRemote[]> {
  const names = remoteMentionNames(html);
  if (!names.length) return [];
  const rows = await db
    .prepare(
      `select u.username, ra.uri, ra.inbox, ra.shared_inbox from users u join remote_actors ra on ra.user_id = u.id
       where lower(u.username) in (${names.map(() => "?").join(", ")})`,
    )
    .bind(...names)
    .all<MentionedRemote>();
  return rows.results;
}

const LOCAL_LINK = /<a href="\/([A-Za-z][A-Za-z0-9_]{0,49})" class="mention">/g;

/** A person here that a note or reply mentions: named in its Mention tags, never delivered to. */
export interface MentionedLocal {
  id: number;
  username: string;
}

/** The local people `html` links as mentions (one indexed query; none without any). */
export async function mentionedLocals(db: D1Database, html: string): Promise<MentionedLocal[]> {
  const names = [...new Set([...html.matchAll(LOCAL_LINK)].map((m) => m[1].toLowerCase()))].slice(0, MAX_MENTIONED);
  if (!names.length) return [];
  const rows = await db
    .prepare(
      `select u.id, u.username from users u where lower(u.username) in (${names.map(() => "?").join(", ")})
       and ${localSql("u.id")}`,
    )
    .bind(...names)
    .all<MentionedLocal>();
  return rows.results;
}

/** Everyone `html` mentions: people elsewhere (tagged, in cc, delivered to) and people here (tagged, in cc). */
export const mentionedPeople = async (db: D1Database, html: string) => {
  const [remotes, locals] = await Promise.all([mentionedRemotes(db, html), mentionedLocals(db, html)]);
  return { remotes, locals };
};
