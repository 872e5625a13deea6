// Plain text to safe HTML, with no sanitiser import: the composer uses it in the browser too.

export const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/**
 * Bidi overrides, embeddings, isolates and marks, zero-width characters and the BOM. Invisible, in
 * a name or label they can only disguise it ("\u202egnp.exe" shows as "exe.png"), so names, labels
 * and folders drop them on write (issue 20 §6; SECURITY.md says why strip, not refuse).
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
export const stripInvisible = (s: string) => s.replace(INVISIBLE, "");

/**
 * C0 control characters and DEL that are not whitespace (NUL, BEL, backspace, ESC…): never part of a
 * name, a description, a folder field or a label, so those refuse them (CONTROL_MESSAGE). Tabs,
 * newlines, VT and FF are whitespace: one-line fields fold them into a space (oneLine), descriptions
 * keep newlines (multiLine).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/;
export const hasControl = (s: string) => CONTROL.test(s);
export const CONTROL_MESSAGE = "cannot contain control characters";

/** A one-line field: invisible characters dropped, any run of whitespace one space, trimmed. */
export const oneLine = (s: string) => stripInvisible(s).trim().replace(/\s+/g, " ");

/** A multi-line field: invisible characters dropped, CR LF and CR as LF, tabs, VT and FF as spaces, trimmed. */
export const multiLine = (s: string) =>
  stripInvisible(s)
    .replace(/\r\n?/g, "\n")
    .replace(/[\t\v\f]/g, " ")
    .trim();

/** Plain text from a form without the editor → paragraphs of escaped text. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .trim()
    .split(/\n{2,}/)
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/**
 * NoteX stores its own links relative to the site ("/ada", "/tag/x"); other servers and apps
 * need them absolute (`origin` is the site's public origin).
 */
export const absoluteLinks = (html: string, origin: string) =>
  html.replace(/(href|src)="\/(?!\/)/g, (_m, attr: string) => `${attr}="${new URL(origin).origin}/`);
