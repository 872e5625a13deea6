import * as XSS from "xss";
import { linkifyText } from "./linkify";
import { normaliseLink } from "./links";

// xss is CommonJS: bundlers hand it over as a namespace or as a default export.
const { FilterXSS, escapeAttrValue, friendlyAttrValue } = ((XSS as unknown as { default?: typeof XSS }).default ??
  XSS) as typeof XSS;

// The allow-list for user HTML, applied on every write: paragraphs, marks, lists, links, code,
// headings. Everything else (scripts, event handlers, styles, iframes, SVG, javascript: URLs) is
// dropped or escaped, so stored HTML is safe to render as is.
const TAGS = [
  "p",
  "br",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "strike",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "h1",
  "h2",
  "h3",
  "a",
];
const whiteList = Object.fromEntries(TAGS.map((t) => [t, t === "a" ? ["href"] : []]));

const filter = new FilterXSS({
  whiteList,
  stripIgnoreTag: true,
  stripIgnoreTagBody: [
    "script",
    "style",
    "iframe",
    "svg",
    "math",
    "object",
    "embed",
    "noscript",
    "template",
    "textarea",
    "title",
  ],
  allowCommentTag: false,
  onTagAttr(tag, name, value) {
    if (tag === "a" && name === "href") {
      // Entities decoded first (&#106;avascript: is javascript: to the browser).
      const href = normaliseLink(friendlyAttrValue(value));
      return href ? `href="${escapeAttrValue(href)}" rel="nofollow noopener ugc"` : "";
    }
    return undefined;
  },
});

const HASHTAG = /(^|[\s(>])#([A-Za-z][A-Za-z0-9]{0,49})(?![A-Za-z0-9])/g;

/** Applies `fn` to the text of sanitised HTML outside links and tags (hashtags, mentions). */
export function mapTextOutsideLinks(html: string, fn: (text: string) => string): string {
  let inLink = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith("<")) {
        if (/^<a\b/i.test(part)) inLink++;
        else if (/^<\/a>/i.test(part)) inLink = Math.max(0, inLink - 1);
        return part;
      }
      return inLink ? part : fn(part);
    })
    .join("");
}

/**
 * The links this server makes itself (a #hashtag to its tag page, an @mention to its profile, and
 * an @name@host to that person's page here, /@name@host), as
 * the filter leaves them when they come back in an edit, with any attributes the editor gave them.
 */
const OWN_LINK =
  /<a href="\/(tag\/)?@?([A-Za-z][A-Za-z0-9_]{0,49}|[\w.-]{1,64}@[A-Za-z0-9.:-]{1,260})" rel="nofollow noopener ugc">([#@])([A-Za-z][A-Za-z0-9_]{0,49}|[\w.-]{1,64}@[A-Za-z0-9.:-]{1,260})<\/a>/g;

/**
 * Back to the text they were made from, to be made again the same way: so saving a note unchanged
 * stores the same HTML (and is no edit). A link whose text is not its own target stays a link.
 */
const unlinkOwn = (html: string) =>
  html.replace(OWN_LINK, (whole, tag: string | undefined, target: string, sigil: string, text: string) =>
    (sigil === "#") === !!tag && target.toLowerCase() === text.toLowerCase() ? `${sigil}${text}` : whole,
  );

const hashtags = (text: string) =>
  text.replace(
    HASHTAG,
    (_m, pre: string, tag: string) => `${pre}<a href="/tag/${tag.toLowerCase()}" class="hashtag">#${tag}</a>`,
  );

/**
 * Sanitises user HTML, links web addresses typed as text (linkify.ts), and turns #hashtags in the
 * rest of the text (not inside links) into links to their tag page.
 */
export function sanitizeHtml(html: string): string {
  const linked = mapTextOutsideLinks(unlinkOwn(filter.process(html)), linkifyText);
  return mapTextOutsideLinks(linked, hashtags);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/**
 * A numeric reference's character; as in HTML, one past U+10FFFF, a surrogate or NUL is U+FFFD
 * (String.fromCodePoint throws on the first: a note with `&#99999999;` was a 500, issue 20 §3).
 */
const codePoint = (n: number) =>
  Number.isSafeInteger(n) && n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff)
    ? String.fromCodePoint(n)
    : "\uFFFD";

/** The plain text of sanitised HTML (block ends become line breaks), for txt, limits and copy. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|li|h[1-3]|blockquote|pre)>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (m, e: string) => {
      if (ENTITIES[e]) return ENTITIES[e];
      if (e.startsWith("#x")) return codePoint(Number.parseInt(e.slice(2), 16));
      if (e.startsWith("#")) return codePoint(Number(e.slice(1)));
      return m;
    })
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
