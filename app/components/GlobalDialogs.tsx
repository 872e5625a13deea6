import type { ReactNode } from "react";
import type { UserJson } from "../../worker/features/users/users.service";

/** Dialogs any page can open with ?dialog=name (features add theirs here). */
export function globalDialogs(_user: UserJson | null): Record<string, ReactNode> {
  return {};
}
