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
