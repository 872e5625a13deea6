// Web addresses typed as text become links, on the server, for every door (pages with or without
// JavaScript, the API, Mastodon apps, federated Notes): sanitizeHtml calls this on the text outside
// links. linkifyjs (the editor's own autolinker) finds them, trailing punctuation and a closing
// bracket left out; only addresses written with http:// or https:// are linked, as Mastodon does,
// so "example.com" or a handle's host stays text.
import { find } from "linkifyjs";

const WEB = /^https?:\/\//i;
// What ends an address in the sanitiser's text: escaped brackets and quotes, and bare quotes.
const STOPS = /(&(?:lt|gt|quot|#34|#39|#x27|apos);|["'])/i;

const linkOne = (text: string) => {
  let out = "";
  let at = 0;
  for (const m of find(text, "url")) {
    if (!WEB.test(m.value)) continue;
    out += `${text.slice(at, m.start)}<a href="${m.value}" rel="nofollow noopener ugc">${m.value}</a>`;
    at = m.end;
  }
  return out + text.slice(at);
};

/** `text` (escaped HTML text, outside any tag) with its web addresses linked. */
export const linkifyText = (text: string) =>
  /https?:\/\//i.test(text)
    ? text
        .split(STOPS)
        .map((part, i) => (i % 2 ? part : linkOne(part)))
        .join("")
    : text;
