import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { ListPage, listPageMeta } from "~/components/notes/ListPage";
import { apiFor } from "~/lib/api.server";
import { listQuery, loadListPage } from "~/lib/notes.server";
import { keepAfterAnsweredActions } from "~/lib/revalidate";

export const meta = listPageMeta("tag", "tag");

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadListPage(
    params.tag,
    (t) => `#${t}`,
    (tag) => apiFor(request, context).v1.tags[":tag"].$get({ param: { tag }, query: listQuery(new URL(request.url)) }),
  );

export default ListPage;

export const shouldRevalidate = keepAfterAnsweredActions;
