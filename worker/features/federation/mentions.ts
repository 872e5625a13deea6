// The people elsewhere a note or reply mentions: its text links them as /@name@host (the save does
// that for people stored here, mentions.service.ts; the consumer for the others, after finding them
// on their servers), and the activity carries a Mention tag for each, has them in cc, and is
// delivered to their inboxes (Mention tags are what make a notification on Mastodon).
import { dbFor } from "../../db/client";
import type { Env } from "../../env";
import { mapTextOutsideLinks } from "../../lib/sanitize";
import { REMOTE_MENTION } from "../mentions/mentions.constants";
import { linkMentions } from "../mentions/mentions.service";
import { resolveHandle } from "./lookup";
import { remoteMentionNames } from "./reach";

export interface MentionedRemote {
  username: string;
  uri: string;
  inbox: string;
  shared_inbox: string | null;
}

/** As many as a note notifies here (mentions.service.ts MAX_MENTIONS). */
const MAX = 10;

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
  const names = [...new Set([...html.matchAll(LOCAL_LINK)].map((m) => m[1].toLowerCase()))].slice(0, MAX);
  if (!names.length) return [];
  const rows = await db
    .prepare(
      `select u.id, u.username from users u where lower(u.username) in (${names.map(() => "?").join(", ")})
       and not exists (select 1 from remote_actors ra where ra.user_id = u.id)`,
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

/**
 * In the consumer, before a saved note or reply goes out: the @name@host handles its text names
 * that are not stored here yet are found on their servers (WebFinger and the actor, each fetch
 * within the federation timeout and the SSRF rule of APP_ENV: lookup.ts), then the stored HTML is
 * linked as the save links people already known. The update holds only while the content is the
 * one read here, so an edit made meanwhile wins (its own message links it again). Answers the
 * content to send. A handle that cannot be found stays text, as Mastodon leaves it.
 */
export async function linkNewRemotes(
  env: Env,
  origin: string,
  table: "notes" | "replies",
  row: { id: number; user_id: number; content: string },
): Promise<string> {
  const handles = new Set<string>();
  mapTextOutsideLinks(row.content, (text) => {
    for (const m of text.matchAll(REMOTE_MENTION)) handles.add(m[2].toLowerCase());
    return text;
  });
  const list = [...handles].slice(0, MAX);
  if (!list.length) return row.content;
  const known = await env.DB.prepare(
    `select lower(username) as name from users where lower(username) in (${list.map(() => "?").join(", ")})`,
  )
    .bind(...list)
    .all<{ name: string }>();
  const have = new Set(known.results.map((r) => r.name));
  const missing = list.filter((h) => !have.has(h));
  if (!missing.length) return row.content;
  const found = await Promise.all(
    missing.map((h) =>
      resolveHandle(env, origin, h).catch((error) => {
        // Their server is down, slow or answers nonsense: the handle stays text, the note still goes out.
        console.error(JSON.stringify({ t: "federation.mention", handle: h, error: String(error) }));
        return null;
      }),
    ),
  );
  if (!found.some((id) => id !== null)) return row.content;
  const { html } = await linkMentions(dbFor(env.DB), row.user_id, row.content);
  if (html !== row.content)
    await env.DB.prepare(`update ${table} set content = ?1 where id = ?2 and content = ?3`)
      .bind(html, row.id, row.content)
      .run();
  return html;
}
