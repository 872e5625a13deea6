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
