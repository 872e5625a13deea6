import { useEffect, useState } from "react";

export const TOAST_MS = 1500;

/** Spec 9: a toast shows for 1.5 s. A new `id` shows the message again. */
export function Toast({ message, id }: { message: string | null | undefined; id?: string | number }) {
  const [shown, setShown] = useState(message ?? null);
  useEffect(() => {
    setShown(message ?? null);
    if (!message) return;
    const t = setTimeout(() => setShown(null), TOAST_MS);
    return () => clearTimeout(t);
  }, [message, id]);
  if (!shown) return null;
  return (
    <div className="toast" role="status" aria-live="polite">
      {shown}
    </div>
  );
}
