// Request parameters every feature reads the same way: an id in the path and a list's page.
import { z } from "zod";

/** A row id: a positive integer D1 can hold exactly (anything else is a 400, never a 500). */
export const idField = (error?: string) =>
  z.coerce
    .number(error ? { error } : undefined)
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER);

export const Id = idField();

/** `/:id` in a path. */
export const IdParam = z.object({ id: Id });

/** A list's page: the spec's page number (a bad one reads as 1) and the opaque keyset cursor. */
export const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  cursor: z.string().max(200).optional(),
});

/** `/:uid` in a path: the person a follow, block or mute is about. */
export const UidParam = z.object({ uid: Id });
