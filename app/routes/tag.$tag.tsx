import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { ListPage, listPageMeta } from "~/components/notes/ListPage";
import { loadListPage } from "~/lib/notes.server";
import { tagRead } from "../../worker/features/notes/read.service";
import { keepAfterAnsweredActions } from "~/lib/revalidate";

export const meta = listPageMeta("tag", "tag");

export const loader = (args: LoaderFunctionArgs) =>
  loadListPage(
    args,
    args.params.tag,
    (t) => `#${t}`,
    (tag, q, db, me) => tagRead(db, tag, q, me),
  );

export default ListPage;

export const shouldRevalidate = keepAfterAnsweredActions;
