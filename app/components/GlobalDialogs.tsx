import { lazy, type ReactNode, Suspense } from "react";
import type { FolderJson } from "../../worker/features/folders/folders.service";
import type { NoteJson } from "../../worker/features/notes/notes.types";
import type { UserJson } from "../../worker/features/users/users.service";
import { DIALOG_MODULES } from "./lazyDialogs";

const ComposerDialog = lazy(() => DIALOG_MODULES.note().then((m) => ({ default: m.ComposerDialog })));
const FolderDialog = lazy(() => DIALOG_MODULES.folder().then((m) => ({ default: m.FolderDialog })));
const DeleteNoteDialog = lazy(() => DIALOG_MODULES["delete-note"]().then((m) => ({ default: m.DeleteNoteDialog })));
const QuoteDialog = lazy(() => DIALOG_MODULES.quote().then((m) => ({ default: m.QuoteDialog })));
const ReportDialog = lazy(() => DIALOG_MODULES.report().then((m) => ({ default: m.ReportDialog })));

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
    "delete-note": (
      <Suspense fallback={null}>
        <DeleteNoteDialog />
      </Suspense>
    ),
    quote: (
      <Suspense fallback={null}>
        <QuoteDialog note={data.note ?? null} />
      </Suspense>
    ),
    report: (
      <Suspense fallback={null}>
        <ReportDialog />
      </Suspense>
    ),
  };
}
