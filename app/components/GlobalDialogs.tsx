import { lazy, type ReactNode, Suspense } from "react";
import type { FolderJson } from "../../worker/features/folders/folders.service";
import type { NoteJson } from "../../worker/features/notes/notes.types";
import type { UserJson } from "../../worker/features/users/users.service";
import { DeleteNoteDialog, QuoteDialog } from "./notes/NoteDialogs";
import { ReportDialog } from "./social/SocialDialogs";

// The two big forms load only when their dialog opens, keeping the first page load small.
const ComposerDialog = lazy(() => import("./notes/Composer").then((m) => ({ default: m.ComposerDialog })));
const FolderDialog = lazy(() => import("./folders/FolderDialog").then((m) => ({ default: m.FolderDialog })));

export interface DialogData {
  note?: NoteJson | null;
  folder?: number;
  /** The signed-in user's folders, for Select Folders in the composer. */
  folders?: FolderJson[];
  /** The folder being edited. */
  editFolder?: FolderJson | null;
}

/** Dialogs any page can open with ?dialog=name (features add theirs here). */
export function globalDialogs(user: UserJson | null, data: DialogData = {}): Record<string, ReactNode> {
  if (!user) return {};
  return {
    note: (
      <Suspense fallback={null}>
        <ComposerDialog note={data.note} folder={data.folder} folders={data.folders} />
      </Suspense>
    ),
    folder: (
      <Suspense fallback={null}>
        <FolderDialog folder={data.editFolder} />
      </Suspense>
    ),
    "delete-note": <DeleteNoteDialog />,
    quote: <QuoteDialog note={data.note ?? null} />,
    report: <ReportDialog />,
  };
}
