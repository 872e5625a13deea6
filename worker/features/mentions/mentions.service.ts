import { and, inArray, sql } from "drizzle-orm";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { userSegment } from "../../lib/links";
import { mapTextOutsideLinks } from "../../lib/sanitize";
import { userInList } from "../safety/visibility";
import { isRemoteName } from "../users/handle";
import { MENTION, REMOTE_MENTION } from "./mentions.constants";

/** Notified people per note or reply: a list of a hundred handles notifies the first ten. */
export const MAX_MENTIONS = 10;

/**
 * Links every @username of sanitised HTML that names a real user to their profile (outside
 * existing links; an unknown name stays text) and answers whom it mentions. One indexed lookup,
 * and none when the text has no @word. Across a block either way (issue 16: neither side can
 * mention the other) or for a suspended account the name stays plain text and no one is told:
 * the note still saves, and the author learns nothing the profile would not show.
 */
export async function linkMentions(
  db: DB,
  authorId: number,
  html: string,
): Promise<{ html: string; userIds: number[] }> {
  const names = new Set<string>();
  mapTextOutsideLinks(html, (text) => {
    for (const m of text.matchAll(MENTION)) names.add(m[2].toLowerCase());
    // Someone on another server, as stored here (federation finds them first: federate.ts).
    for (const m of text.matchAll(REMOTE_MENTION)) names.add(m[2].toLowerCase());
    return text;
  });
  if (!names.size) return { html, userIds: [] };
  const found = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(inArray(sql`lower(${users.username})`, [...names].slice(0, 90)), userInList(sql`"users"`, authorId)));
  const byName = new Map(found.map((u) => [u.username.toLowerCase(), u]));
  const mentioned: number[] = [];
  const link = (whole: string, pre: string, name: string) => {
    const u = byName.get(name.toLowerCase());
    if (!u) return whole;
    // People elsewhere are told by their own server (the Mention travels with the note), not here.
    const remote = isRemoteName(u.username);
    if (!remote && !mentioned.includes(u.id)) mentioned.push(u.id);
    return `${pre}<a href="/${remote ? "@" : ""}${userSegment(u.username)}" class="mention">@${u.username}</a>`;
  };
  const linked = mapTextOutsideLinks(html, (text) => text.replace(REMOTE_MENTION, link).replace(MENTION, link));
  return { html: linked, userIds: mentioned.slice(0, MAX_MENTIONS) };
}
