// Mentions of people not stored here yet, found before a note or reply goes out (the consumer
// only). Apart from mentions.ts, which the object dispatcher reads, since finding someone loads
// the federation (lookup.ts) and the federation must not load itself.
import { dbFor } from "../../db/client";
import type { Env } from "../../env";
import { mapTextOutsideLinks } from "../../lib/sanitize";
import { REMOTE_MENTION } from "../mentions/mentions.constants";
import { linkMentions } from "../mentions/mentions.service";
import { resolveHandle } from "./lookup";
import { MAX_MENTIONED } from "./mentions";

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
  const list = [...handles].slice(0, MAX_MENTIONED);
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
