// The people elsewhere a note or reply mentions: its text links them as /@name@host (the save does
// that, mentions.service.ts), and the activity carries a Mention tag for each, has them in cc, and
// is delivered to their inboxes (Mention tags are what make a notification on Mastodon).

export interface MentionedRemote {
  username: string;
  uri: string;
  inbox: string;
  shared_inbox: string | null;
}

/** As many as a note notifies here (mentions.service.ts MAX_MENTIONS). */
const MAX = 10;
const LINK = /<a href="\/@([^"/@]+@[^"/@]+)" class="mention">/g;

/** The stored people elsewhere that `html` links as mentions (one indexed query; none without any). */
export async function mentionedRemotes(db: D1Database, html: string): Promise<MentionedRemote[]> {
  const names = [...new Set([...html.matchAll(LINK)].map((m) => m[1].toLowerCase()))].slice(0, MAX);
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
