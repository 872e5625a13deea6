import type { ReactNode } from "react";
import type { FolderJson } from "../../worker/features/folders/folders.service";
import type { NoteJson } from "../../worker/features/notes/notes.types";
import { FolderDialog } from "./folders/FolderDialog";
import type { UserJson } from "../../worker/features/users/users.service";
import { ComposerDialog } from "./notes/Composer";
import { DeleteNoteDialog, QuoteDialog } from "./notes/NoteDialogs";
import { ReportDialog } from "./social/SocialDialogs";

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
