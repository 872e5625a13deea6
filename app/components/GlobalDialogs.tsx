import type { ReactNode } from "react";
import type { FolderJson } from "../../worker/features/folders/folders.service";
import type { NoteJson } from "../../worker/features/notes/notes.types";
import type { UserJson } from "../../worker/features/users/users.service";
import { DIALOG_MODULES, lazyDialog } from "./lazyDialogs";

const ComposerDialog = lazyDialog(DIALOG_MODULES.note, (m) => m.ComposerDialog);
const FolderDialog = lazyDialog(DIALOG_MODULES.folder, (m) => m.FolderDialog);
const DeleteNoteDialog = lazyDialog(DIALOG_MODULES["delete-note"], (m) => m.DeleteNoteDialog);
const QuoteDialog = lazyDialog(DIALOG_MODULES.quote, (m) => m.QuoteDialog);
const ReportDialog = lazyDialog(DIALOG_MODULES.report, (m) => m.ReportDialog);

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
    note: <ComposerDialog note={data.note} folder={data.folder} folders={data.folders} />,
    folder: <FolderDialog folder={data.editFolder} />,
    "delete-note": <DeleteNoteDialog />,
    quote: <QuoteDialog note={data.note ?? null} />,
    report: <ReportDialog />,
  };
}
