import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { useHydrated } from "~/lib/hydrated";

export const TOAST_MS = 1500;

/**
 * Spec 9: a toast shows for 1.5 s. A new `id` shows the message again. Once hydrated it renders
 * into <body>, so a toast started from a menu still shows when the menu closes.
 */
export function Toast({ message, id }: { message: string | null | undefined; id?: string | number }) {
  const [shown, setShown] = useState(message ?? null);
  const hydrated = useHydrated();
  useEffect(() => {
    setShown(message ?? null);
    if (!message) return;
    const t = setTimeout(() => setShown(null), TOAST_MS);
    return () => clearTimeout(t);
  }, [message, id]);
  if (!shown) return null;
  const toast = (
    <div className="toast" role="status" aria-live="polite">
      {shown}
    </div>
  );
  return hydrated ? createPortal(toast, document.body) : toast;
}
