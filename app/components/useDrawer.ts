import { useNavigate } from "@remix-run/react";
import { type RefObject, useEffect, useRef } from "react";

const FOCUSABLE = "a[href],button:not([disabled]),input:not([type=hidden]),select,textarea";

/**
 * The phone's drawer (the left sidebar opened by ?sidebar=1) as a modal: focus moves into it when it
 * opens and stays there (Tab wraps), Escape closes it, and closing gives the focus back to the menu
 * button. Without JavaScript it is a plain link-driven panel, closed by its links.
 */
export function useDrawer(ref: RefObject<HTMLElement>, open: boolean, closeHref: string) {
  const navigate = useNavigate();
  const wasOpen = useRef(false);
  const closeTo = useRef(closeHref);
  closeTo.current = closeHref;
  useEffect(() => {
    const el = ref.current;
    if (!open) {
      if (wasOpen.current) document.querySelector<HTMLElement>(".menu-toggle")?.focus();
      wasOpen.current = false;
      return;
    }
    wasOpen.current = true;
    if (!el) return;
    // Only where the sidebar is a drawer (a phone); on a wide screen it is part of the page.
    if (getComputedStyle(el).position !== "fixed") return;
    if (!el.contains(document.activeElement)) el.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        navigate(closeTo.current, { replace: true, preventScrollReset: true });
      } else if (e.key === "Tab") {
        const all = Array.from(el.querySelectorAll<HTMLElement>(FOCUSABLE));
        const first = all[0];
        const last = all[all.length - 1];
        const inside = el.contains(document.activeElement);
        if (e.shiftKey && (document.activeElement === first || !inside)) {
          e.preventDefault();
          last?.focus();
        } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
          e.preventDefault();
          first?.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, ref, navigate]);
}
