import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { ListPage, listPageMeta } from "~/components/notes/ListPage";
import { apiFor } from "~/lib/api.server";
import { listQuery, loadListPage } from "~/lib/notes.server";
import { keepAfterAnsweredActions } from "~/lib/revalidate";

export const meta = listPageMeta("xlabel", "label");

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadListPage(
    params.label,
    (l) => l,
    (label) =>
      apiFor(request, context).v1.labels[":label"].$get({ param: { label }, query: listQuery(new URL(request.url)) }),
  );

export default ListPage;

export const shouldRevalidate = keepAfterAnsweredActions;
