import { Link, type LinkProps } from "@remix-run/react";
import { forwardRef } from "react";

/**
 * The link to a list's next page, under the list: a real link (`rel="next"`), so the next page
 * loads without JavaScript too. `ref` is its box's (a list that loads on scroll watches it).
 */
export const MoreLink = forwardRef<HTMLDivElement, Omit<LinkProps, "rel"> & { children?: React.ReactNode }>(
  function MoreLink({ children = "More", ...link }, ref) {
    return (
      <div ref={ref} className="more">
        <Link {...link} rel="next">
          {children}
        </Link>
      </div>
    );
  },
);

/** The address of a list's next page: this page's own query, with the next page's number and cursor. */
export function nextPageOf(
  path: string,
  query: URLSearchParams,
  list: { paginator: { page: number }; cursor?: string | null },
) {
  const next = new URLSearchParams(query);
  next.set("page", String(list.paginator.page + 1));
  if (list.cursor) next.set("cursor", list.cursor);
  return `${path}?${next}`;
}
