import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import type { FolderJson } from "../../worker/features/folders/folders.service";
import type { NoteJson } from "../../worker/features/notes/notes.types";
import type { UserJson } from "../../worker/features/users/users.service";
import type { Marks } from "~/lib/toggle";

// The one registry of the dialogs a URL opens (?dialog=name) whose code loads only when one opens,
// so a page's first load stays small: each name's module and component, and for the dialogs any
// signed-in page can open, what they are given. Layout awaits the one in the URL before it marks
// the page ready. (Dialogs that belong to one page, such as edit-profile, stay with that page.)

/** What the root loader reads for an open dialog: the note being edited or quoted, the folder to pre-select. */
export interface DialogData {
  note?: NoteJson | null;
  folder?: number;
  /** The signed-in user's folders, for Select Folders in the composer. */
  folders?: FolderJson[];
  /** The folder being edited. */
  editFolder?: FolderJson | null;
  /** The private marks (Save) of the note of the menu's dialog, by their state word. */
  marks?: Marks;
  /** ?dialog=note&edit= named a note that is not the signed-in user's (or none at all). */
  editRefused?: boolean;
}

/** A dialog component from its module, loaded on first render, rendering nothing until it has. */
function lazyDialog<M, P extends object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>) {
  // (React's lazy type loses generic props; the component is the same one `pick` returns.)
  const Lazy = lazy(() => load().then((m) => ({ default: pick(m) }))) as unknown as ComponentType<P>;
  // biome-ignore lint/correctness/noComponentHookFactories: called once per dialog at module level, like React.lazy, so each component is made once
  return function LazyDialog(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

/**
 * One ?dialog= name: its module, its component, and (`props`) for a dialog any signed-in page
 * opens, its props from the root loader's DialogData.
 */
function entry<M, P extends object>(
  load: () => Promise<M>,
  pick: (m: M) => ComponentType<P>,
  props?: (data: DialogData) => P,
) {
  const Component = lazyDialog(load, pick);
  return { load, Component, render: props && ((data: DialogData) => <Component {...props(data)} />) };
}

/** The frame itself: the shell's login, sign-up and logout dialogs open in it. */
const frame = () => import("./Dialog");
export const Dialog = lazyDialog(frame, (m) => m.Dialog);
export const ConfirmDialog = lazyDialog(frame, (m) => m.ConfirmDialog);

export const DIALOGS = {
  login: entry(
    () => import("./AuthForms"),
    (m) => m.LoginForm,
  ),
  signup: entry(
    () => import("./AuthForms"),
    (m) => m.SignupForm,
  ),
  note: entry(
    () => import("./notes/Composer"),
    (m) => m.ComposerDialog,
    (d) => ({ note: d.note, folder: d.folder, folders: d.folders, refused: d.editRefused }),
  ),
  folder: entry(
    () => import("./folders/FolderDialog"),
    (m) => m.FolderDialog,
    (d) => ({ folder: d.editFolder }),
  ),
  quote: entry(
    () => import("./notes/NoteDialogs"),
    (m) => m.QuoteDialog,
    (d) => ({ note: d.note ?? null }),
  ),
  "delete-note": entry(
    () => import("./notes/NoteDialogs"),
    (m) => m.DeleteNoteDialog,
    () => ({}),
  ),
  "note-menu": entry(
    () => import("./notes/NoteMenu"),
    (m) => m.NoteMenuDialog,
    (d) => ({ note: d.note ?? null, marks: d.marks }),
  ),
  report: entry(
    () => import("./social/SocialDialogs"),
    (m) => m.ReportDialog,
    () => ({}),
  ),
  block: entry(
    () => import("./safety/BlockDialog"),
    (m) => m.BlockDialog,
    () => ({}),
  ),
};

/** Resolves once the module of the dialog named in `search` (if any) is loaded. */
export function dialogLoaded(search: string): Promise<unknown> {
  const name = new URLSearchParams(search).get("dialog") ?? "";
  if (!name) return Promise.resolve();
  const load = (DIALOGS as Record<string, { load: () => Promise<unknown> } | undefined>)[name]?.load;
  return Promise.all([frame(), load?.()]).catch(() => undefined);
}

/** The dialogs any signed-in page can open, by name, given what the root loader read for them. */
export function globalDialogs(user: UserJson | null, data: DialogData = {}): Record<string, ReactNode> {
  if (!user) return {};
  const named: [string, ReactNode][] = [];
  for (const [name, d] of Object.entries(DIALOGS)) if (d.render) named.push([name, d.render(data)]);
  return Object.fromEntries(named);
}
