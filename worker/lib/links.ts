// Shared by the sanitiser, the folder schema and the browser's Add Link dialog (no xss import here).

/** Spec 5: a link without a scheme gets http:// prepended; only http(s) and mailto survive. */
export function normaliseLink(raw: string): string | null {
  const href = raw.trim();
  if (!href) return null;
  if (/^(https?:|mailto:)/i.test(href)) return href;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return null; // javascript:, data:, vbscript: …
  if (href.startsWith("/") && !href.startsWith("//")) return href;
  return `http://${href.replace(/^\/+/, "")}`;
}
