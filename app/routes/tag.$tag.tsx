import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { ListPage } from "~/components/notes/ListPage";
import { apiFor } from "~/lib/api.server";
import { feedLink } from "~/lib/meta";
import { listQuery, loadListPage } from "~/lib/notes.server";
import { keepAfterAnsweredActions } from "~/lib/revalidate";

export const meta: MetaFunction<typeof loader> = ({ data, params }) => [
  { title: data ? `${data.title} · NoteX` : "NoteX" },
  ...(data ? [feedLink(`/tag/${encodeURIComponent(params.tag ?? "")}/rss`, `${data.title} · NoteX`)] : []),
];

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadListPage(
    params.tag,
    (t) => `#${t}`,
    (tag) => apiFor(request, context).v1.tags[":tag"].$get({ param: { tag }, query: listQuery(new URL(request.url)) }),
  );

export default ListPage;

export const shouldRevalidate = keepAfterAnsweredActions;
