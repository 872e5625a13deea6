import { useState } from "react";
import { Toast } from "./Toast";

/**
 * A menu entry that copies text (a link, a note's text) and says "Copied" (spec 4). It needs
 * JavaScript (js-only); the open menu closes on the click (lib/menus), the toast lives in <body>.
 */
export function CopyButton({ label, text, className }: { label: string; text: () => string; className?: string }) {
  const [at, setAt] = useState(0);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text());
    } catch {}
    setAt(Date.now());
  };
  return (
    <>
      <button type="button" className={`js-only${className ? ` ${className}` : ""}`} onClick={copy}>
        {label}
      </button>
      <Toast message={at ? "Copied" : null} id={at} />
    </>
  );
}
