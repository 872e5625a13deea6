import type { ReactNode } from "react";
import type { NoteJson } from "../../worker/features/notes/notes.types";
import type { UserJson } from "../../worker/features/users/users.service";
import { ComposerDialog } from "./notes/Composer";
import { DeleteNoteDialog, QuoteDialog } from "./notes/NoteDialogs";
import { ReportDialog } from "./social/SocialDialogs";

export interface DialogData {
  note?: NoteJson | null;
  folder?: number;
}

/** Dialogs any page can open with ?dialog=name (features add theirs here). */
export function globalDialogs(user: UserJson | null, data: DialogData = {}): Record<string, ReactNode> {
  if (!user) return {};
  return {
    note: <ComposerDialog note={data.note} folder={data.folder} />,
    "delete-note": <DeleteNoteDialog />,
    quote: <QuoteDialog note={data.note ?? null} />,
    report: <ReportDialog />,
  };
}
