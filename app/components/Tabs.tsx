import { Link } from "@remix-run/react";

/** A page's tabs: links, the current one marked for screen readers and the stylesheet alike. */
export function Tabs({
  label,
  current,
  tabs,
}: {
  label: string;
  current: string;
  tabs: [id: string, to: string, text: string][];
}) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map(([id, to, text]) => (
        <Link key={id} to={to} aria-current={current === id ? "page" : undefined}>
          {text}
        </Link>
      ))}
    </nav>
  );
}

/**
 * The tabs of the page at `base`: the first tab is the page itself, every other one adds
 * `?{param}={id}` (so the default tab has one address). `texts` maps each id to its text, in order.
 */
export const tabLinks = (base: string, param: string, texts: Record<string, string>) =>
  Object.entries(texts).map(([id, text], i): [string, string, string] => [
    id,
    i === 0 ? base : `${base}?${param}=${id}`,
    text,
  ]);
