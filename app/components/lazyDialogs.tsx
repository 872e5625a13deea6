import { type ComponentType, lazy, Suspense } from "react";

// The modules of the dialogs a URL can open (?dialog=name), loaded only when one opens so a page's
// first load stays small. Layout also awaits the one in the URL before it marks the page ready.
export const DIALOG_MODULES = {
  /** The frame itself (the shell's login, sign-up and logout dialogs open in it). */
  dialog: () => import("./Dialog"),
  login: () => import("./AuthForms"),
  signup: () => import("./AuthForms"),
  note: () => import("./notes/Composer"),
  folder: () => import("./folders/FolderDialog"),
  quote: () => import("./notes/NoteDialogs"),
  "delete-note": () => import("./notes/NoteDialogs"),
  report: () => import("./social/SocialDialogs"),
} as const;

/** Resolves once the module of the dialog named in `search` (if any) is loaded. */
export function dialogLoaded(search: string): Promise<unknown> {
  const name = new URLSearchParams(search).get("dialog") ?? "";
  const load = (DIALOG_MODULES as Record<string, () => Promise<unknown>>)[name];
  if (!name) return Promise.resolve();
  return Promise.all([DIALOG_MODULES.dialog(), load?.()]).catch(() => undefined);
}

/** A dialog component from its module, loaded on first render, rendering nothing until it has. */
export function lazyDialog<M, P extends object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>) {
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
