import { CopyButton } from "~/components/CopyButton";
import { noun } from "~/lib/plural";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { typeLabel } from "../../worker/features/folders/folders.constants";
import { FolderLogo, monthRange } from "~/components/folders/FolderLogo";
import { RssLink } from "~/components/RssLink";
import { NoteList } from "~/components/notes/NoteList";
import { folderRead } from "../../worker/features/folders/folders.service";
import { BY_ADDRESS, folderNotesRead } from "../../worker/features/folders/folders.lists";
import { listParams, must, readPage } from "~/lib/page.server";
import { orMoved } from "~/lib/moved.server";
import { noticeText } from "~/lib/notices";
import { excerpt, feedLink, originOf, previewMeta } from "~/lib/meta";
import { dialogHref } from "~/lib/scroll";
import { useViewer } from "~/lib/viewer";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: "NoteX" }];
  const { folder } = data;
  const owner = folder.user?.username ?? "";
  return [
    ...previewMeta(
      {
        title: `${folder.name} · ${folder.user?.fullname ?? owner}`,
        description: excerpt(folder.descr || `${folder.type} of @${owner} on NoteX: ${folder.notenum} notes`),
        path: `/${owner}/x/${folder.slug}`,
        image: folder.logo || folder.user?.avatar,
      },
      originOf(matches),
    ),
    feedLink(`/${owner}/x/${folder.slug}/rss`, `Notes in ${folder.name}`),
  ];
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const label = url.searchParams.get("l") ?? "";
  const address = { slug: params.slug ?? "", username: params.username ?? "" };
  // The folder and its notes, both by the page's address: one batch.
  const page = await readPage(request, context, {
    folder: (db, me) => folderRead(db, address, me),
    notes: (db, me) => folderNotesRead(db, BY_ADDRESS, address, label, listParams(url), me),
  });
  const folder = await orMoved(page.reads.folder, page, request, address.username);
  const list = must(page.viewer, page.reads.notes);
  return { viewer: page.viewer, folder, list, label, error: noticeText(url.searchParams.get("folder_error")) };
}

export default function FolderPage() {
  const { folder, list, label, error } = useLoaderData<typeof loader>();
  const viewer = useViewer();
  const location = useLocation();
  const owner = folder.user?.username ?? "";
  const base = `/${owner}/x/${folder.slug}`;
  const labels = Object.entries(folder.labels ?? {});
  return (
    <section className="page">
      <h1 className="folder-type">{typeLabel(folder.type)}</h1>
      <header className="folder-head">
        <FolderLogo type={folder.type} logo={folder.logo} size={64} />
        <div>
          <h2>{folder.name}</h2>
          {(folder.role || folder.start_month) && (
            <p className="folder-role">
              {folder.role}
              {folder.role && folder.start_month && " · "}
              {monthRange(folder) && <span className="muted">{monthRange(folder)}</span>}
            </p>
          )}
          <p className="muted">
            {folder.notenum} {noun(folder.notenum, "note")} · by <Link to={`/${owner}`}>{folder.user?.fullname}</Link>
          </p>
          {folder.link && (
            <a href={folder.link} rel="nofollow noopener ugc" target="_blank">
              {folder.link}
            </a>
          )}
          {folder.descr && <p>{folder.descr}</p>}
          <RssLink href={`${base}/rss`} label={`RSS feed of ${folder.name}`} />
        </div>
        {folder.user?.me && (
          <details className="menu">
            <summary aria-label="Folder menu">
              <Icon name="ellipsis" size={20} />
            </summary>
            <ul>
              <li>
                <Link to={dialogHref(location, "folder", { edit: folder.id })} preventScrollReset>
                  Edit
                </Link>
              </li>
              <li>
                <CopyButton
                  label="Copy link"
                  text={() => new URL(`/${owner}/x/${folder.slug}`, window.location.href).href}
                />
              </li>
              <li>
                <Link to={dialogHref(location, "delete-folder")} preventScrollReset>
                  Delete
                </Link>
              </li>
            </ul>
          </details>
        )}
      </header>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {labels.length > 0 && (
        <nav className="chips" aria-label="Filter by x-label">
          <Link to={base} aria-current={!label ? "page" : undefined}>
            All
          </Link>
          {labels.map(([l, n]) => (
            <Link key={l} to={`${base}?l=${encodeURIComponent(l)}`} aria-current={label === l ? "page" : undefined}>
              {l} ({n})
            </Link>
          ))}
        </nav>
      )}
      {folder.user?.me && (
        <Link to={`${base}?dialog=note&folder=${folder.id}`} className="btn primary small" preventScrollReset>
          Take a note
        </Link>
      )}
      {location.search.includes("dialog=delete-folder") && folder.user?.me && (
        <DeleteFolder id={folder.id} back={base} />
      )}
      <NoteList list={list} viewer={viewer} />
    </section>
  );
}

import { DeleteDialog } from "~/components/Dialog";
import { keepAfterAnsweredActions } from "~/lib/revalidate";
import { Icon } from "../components/Icon";

function DeleteFolder({ id, back }: { id: number; back: string }) {
  return <DeleteDialog what="x-folder" action="/actions/folder" id={String(id)} goneTo={back} />;
}

export const shouldRevalidate = keepAfterAnsweredActions;
