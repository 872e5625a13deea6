import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = () => [{ title: "NoteX" }];

export function loader({ request }: LoaderFunctionArgs) {
  const tab = new URL(request.url).searchParams.get("tab") === "following" ? "following" : "discover";
  return { tab };
}

export default function Home() {
  const { tab } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <section className="page">
      <nav className="tabs" aria-label="Feeds">
        <Link to="/" aria-current={tab === "discover" ? "page" : undefined}>
          Discover
        </Link>
        <Link to="/?tab=following" aria-current={tab === "following" ? "page" : undefined}>
          Following
        </Link>
      </nav>
      {root?.user && (
        <Link to="?dialog=note" className="composer-prompt">
          <span>Take a note...</span>
          <span className="btn primary small">NoteX</span>
        </Link>
      )}
      <p className="empty">No notes yet</p>
    </section>
  );
}
