import sprite from "../icons.svg?no-inline";
import type { IconName } from "./icons";

/**
 * A lucide icon drawn from the one sprite file (scripts/icon-sprite.mjs): the page carries only a
 * <use> of it, the file is same-origin (CSP default-src 'self') and cached like every hashed asset.
 * Icons are for the eye: the control around one names itself. `filled` fills the shape (a liked
 * heart); colour is currentColor in either theme.
 */
export function Icon({ name, size, filled }: { name: IconName; size: number; filled?: boolean }) {
  return (
    <svg className={filled ? "lucide filled" : "lucide"} width={size} height={size} aria-hidden="true">
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}
