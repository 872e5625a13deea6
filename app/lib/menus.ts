/**
 * The <details> menus (note ⋯, renote) behave as menus do (issue 21): one open at a time, and a
 * click outside, a chosen entry or Escape closes them. Without JavaScript they stay plain <details>.
 * Installed once on the document; returns its removal.
 */
export function installMenus(): () => void {
  const open = () => Array.from(document.querySelectorAll<HTMLDetailsElement>("details.menu[open]"));
  // A click outside closes a menu; so does choosing one of its entries (a link or a button).
  const onClick = (e: MouseEvent) => {
    const t = e.target as Element;
    // Gone with the click's own update (a card's ⋯ link, replaced by the dropdown it opened): not outside.
    if (!t.isConnected) return;
    const chose = !!t.closest?.("a,button") && !t.closest("summary");
    for (const d of open()) if (!d.contains(t) || chose) d.open = false;
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== "Escape") return;
    for (const d of open()) {
      d.open = false;
      d.querySelector("summary")?.focus();
    }
  };
  // "toggle" does not bubble: listen in the capture phase.
  const onToggle = (e: Event) => {
    const t = e.target as HTMLDetailsElement;
    if (!t.open || !t.matches("details.menu")) return;
    for (const d of open()) if (d !== t && !d.contains(t)) d.open = false;
  };
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  document.addEventListener("toggle", onToggle, true);
  return () => {
    document.removeEventListener("click", onClick);
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("toggle", onToggle, true);
  };
}
