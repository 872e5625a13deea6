import { Icon } from "./Icon";

/**
 * A visible link to a page's RSS feed (the page's <head> names it too, for readers that look
 * there): a plain link, so a feed reader or a browser extension can take it from here.
 */
export function RssLink({ href, label }: { href: string; label: string }) {
  return (
    <a className="rss-link" href={href} aria-label={label} type="application/rss+xml">
      <Icon name="rss" size={16} /> RSS
    </a>
  );
}
