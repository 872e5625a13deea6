// Link previews (OpenGraph and Twitter cards), canonical URLs and feed links for a page's meta.
import type { MetaDescriptor } from "@remix-run/cloudflare";

/** The site's origin, as the root loader saw it (meta functions have no request). */
export function originOf(matches: { id: string; data: unknown }[]): string {
  const root = matches.find((m) => m.id === "root")?.data as { origin?: string } | undefined;
  return root?.origin ?? "";
}

/** Text for a description: one line, cut at a word near `max` characters. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if ([...flat].length <= max) return flat;
  const cut = [...flat].slice(0, max).join("");
  return `${cut.replace(/\s+\S*$/, "") || cut}…`;
}

export interface Preview {
  title: string;
  description: string;
  /** Path of the page's canonical URL. */
  path: string;
  /** An image URL (absolute or site-relative); a note's first image or a person's avatar. */
  image?: string;
  type?: "article" | "profile" | "website";
}

/** The page's title, description, canonical link and its OpenGraph / Twitter card. */
export function previewMeta(p: Preview, origin: string): MetaDescriptor[] {
  const url = `${origin}${p.path}`;
  const image = p.image ? (p.image.startsWith("/") ? `${origin}${p.image}` : p.image) : "";
  return [
    { title: `${p.title} · NoteX` },
    { name: "description", content: p.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: "NoteX" },
    { property: "og:type", content: p.type ?? "website" },
    { property: "og:title", content: p.title },
    { property: "og:description", content: p.description },
    { property: "og:url", content: url },
    ...(image ? [{ property: "og:image", content: image }] : []),
    { name: "twitter:card", content: image && p.type === "article" ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: p.title },
    { name: "twitter:description", content: p.description },
    ...(image ? [{ name: "twitter:image", content: image }] : []),
  ];
}

/** `<link rel="alternate">` to a page's RSS feed. */
export const feedLink = (path: string, title: string): MetaDescriptor => ({
  tagName: "link",
  rel: "alternate",
  type: "application/rss+xml",
  href: path,
  title,
});
