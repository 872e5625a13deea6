import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { useHydrated } from "~/lib/hydrated";

export const TOAST_MS = 1500;

/**
 * Spec 9: a toast shows for 1.5 s. A new `id` shows the message again. Once hydrated it renders
 * into <body>, so a toast started from a menu still shows when the menu closes.
 */
export function Toast({ message, id }: { message: string | null | undefined; id?: string | number }) {
  // A new message (or id) starts its 1.5 s; a message gone before then (the page read again after
  // a flash was taken) does not cut them short.
  const [shown, setShown] = useState(message ? { text: message } : null);
  const hydrated = useHydrated();
  useEffect(() => {
    if (message) setShown({ text: message });
  }, [message, id]);
  useEffect(() => {
    if (!shown) return;
    const t = setTimeout(() => setShown(null), TOAST_MS);
    return () => clearTimeout(t);
  }, [shown]);
  if (!shown) return null;
  const toast = (
    <div className="toast" role="status" aria-live="polite">
      {shown.text}
    </div>
  );
  return hydrated ? createPortal(toast, document.body) : toast;
}
