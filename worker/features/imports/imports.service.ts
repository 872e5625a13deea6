// Bringing a LinkedIn career in: a preview of the folders an export holds (each marked when the
// person has it already), then the chosen ones made as any folder is made (FolderInput, the same
// duplicate rule), so an import run twice adds nothing the second time.
import { eq, sql } from "drizzle-orm";
import { folders } from "../../db/schema/folders";
import type { DB } from "../../env";
import { AppError } from "../../lib/errors";
import { FolderInput } from "../folders/folders.schema";
import { createFolder } from "../folders/folders.service";
import type { ImportItem } from "./linkedin";

/** At most this many folders in one import (a long career has a few hundred rows). */
export const MAX_ITEMS = 1000;

/** The keys (type|name, lower case) of the folders the person has: one statement. */
export async function ownKeys(db: DB, uid: number): Promise<Set<string>> {
  const rows = await db
    .select({ k: sql<string>`lower(${folders.type}) || '|' || lower(${folders.name})` })
    .from(folders)
    .where(eq(folders.userId, uid));
  return new Set(rows.map((r) => r.k));
}

export interface ImportOutcome {
  created: number;
  existing: number;
  failed: { name: string; reason: string }[];
}

/**
 * Makes the chosen folders, one after another, each checked as a folder the person types in is;
 * one already there (by type and name) is left as it is: nothing in the account is changed or lost.
 */
export async function importItems(db: DB, uid: number, items: ImportItem[]): Promise<ImportOutcome> {
  if (items.length > MAX_ITEMS) throw new AppError(413, "too_many", `At most ${MAX_ITEMS} x-folders in one import.`);
  const have = await ownKeys(db, uid);
  const out: ImportOutcome = { created: 0, existing: 0, failed: [] };
  for (const item of items) {
    const input = FolderInput.safeParse(item);
    if (!input.success) {
      out.failed.push({
        name: String(item?.name ?? "").slice(0, 250),
        reason: input.error.issues[0]?.message ?? "invalid",
      });
      continue;
    }
    const key = `${input.data.type}|${input.data.name}`.toLowerCase();
    if (have.has(key)) {
      out.existing++;
      continue;
    }
    have.add(key);
    await createFolder(db, uid, input.data);
    out.created++;
  }
  return out;
}
