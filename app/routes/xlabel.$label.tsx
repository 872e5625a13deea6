import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { ListPage, listPageMeta } from "~/components/notes/ListPage";
import { loadListPage } from "~/lib/notes.server";
import { labelRead } from "../../worker/features/notes/read.service";
import { keepAfterAnsweredActions } from "~/lib/revalidate";

export const meta = listPageMeta("xlabel", "label");

export const loader = (args: LoaderFunctionArgs) =>
  loadListPage(
    args,
    args.params.label,
    (l) => l,
    (label, q, db, me) => labelRead(db, label, q, me),
  );

export default ListPage;

export const shouldRevalidate = keepAfterAnsweredActions;
