// RSS 2.0 and sitemap XML, written by hand: a handful of elements, every value escaped.
import type { NoteJson } from "../notes/notes.types";

export const xmlEscape = (s: string) =>
  s
    // Characters XML 1.0 cannot carry at all (control characters other than tab and line breaks).
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");

/** Relative links and images of stored HTML made absolute: a feed reader has no base URL of ours. */
const absolute = (html: string, origin: string) => html.replace(/(href|src)="\//g, `$1="${origin}/`);

/** A note's text as a one-line title: its first line, cut at a word near 80 characters. */
export function titleOf(txt: string, fallback: string): string {
  const line =
    txt
      .split("\n")
      .find((l) => l.trim())
      ?.trim() ?? "";
  if (!line) return fallback;
  if ([...line].length <= 80) return line;
  const cut = [...line].slice(0, 80).join("");
  return `${cut.replace(/\s+\S*$/, "") || cut}…`;
}

/** The note's HTML as a feed item shows it: its (sanitised) content, quote, video and images. */
function itemHtml(n: NoteJson, origin: string): string {
  const parts = [n.content];
  if (n.kind === "quote" && n.renote)
    parts.push(`<blockquote>${n.renote.content}<p>— @${n.renote.user.username}</p></blockquote>`);
  if (n.video)
    parts.push(`<p><a href="https://www.youtube.com/watch?v=${encodeURIComponent(n.video)}">YouTube video</a></p>`);
  for (const src of n.imgs.split(";").filter(Boolean)) parts.push(`<p><img src="${xmlEscape(src)}" alt=""></p>`);
  return absolute(parts.join(""), origin);
}

export interface Channel {
  title: string;
  description: string;
  /** The page the feed is of (absolute). */
  link: string;
  /** The feed's own URL (absolute). */
  self: string;
}

/** An RSS 2.0 document of notes, newest first; HTML goes in as escaped text, as RSS 2.0 expects. */
export function rss(channel: Channel, notes: NoteJson[], origin: string): string {
  const items = notes.map((n) => {
    const link = `${origin}/${n.user.username}/note/${n.id}`;
    return `<item>
<title>${xmlEscape(titleOf(n.txt, `Note by @${n.user.username}`))}</title>
<link>${xmlEscape(link)}</link>
<guid isPermaLink="true">${xmlEscape(link)}</guid>
<pubDate>${new Date(n.created_at).toUTCString()}</pubDate>
<dc:creator>${xmlEscape(`${n.user.fullname} (@${n.user.username})`)}</dc:creator>
${n.label ? `<category>${xmlEscape(n.label)}</category>\n` : ""}<description>${xmlEscape(itemHtml(n, origin))}</description>
</item>`;
  });
  const updated = notes[0] ? new Date(notes[0].created_at).toUTCString() : new Date(0).toUTCString();
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
<title>${xmlEscape(channel.title)}</title>
<link>${xmlEscape(channel.link)}</link>
<description>${xmlEscape(channel.description)}</description>
<atom:link href="${xmlEscape(channel.self)}" rel="self" type="application/rss+xml"/>
<language>en</language>
<lastBuildDate>${updated}</lastBuildDate>
<generator>NoteX</generator>
${items.join("\n")}
</channel>
</rss>
`;
}
