// Request parameters every feature reads the same way: an id in the path and a list's page.
// z from @hono/zod-openapi: the zod that knows `.openapi()` once this module runs, whichever module
// the bundle runs first (plain "zod" has it only after @hono/zod-openapi has been loaded).
import { z } from "@hono/zod-openapi";
import { CONTROL_MESSAGE, hasControl, multiLine } from "./text";

/**
 * `schema.catch(fallback)`: a bad or missing value reads as the fallback (page "abc" is page 1).
 * The document generator knows no `catch`, so the value is described as what it stands for.
 */
export function orElse<T extends z.ZodType>(schema: T, fallback: z.output<T>) {
  const { $schema, ...described } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return schema.catch(fallback).openapi(described as object);
}

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

/** A note or reply at its address: its author's name and its id. */
export const AddressParam = IdParam.extend({ username: z.string().min(1).max(100) });

/** A list's page: the spec's page number (a bad one reads as 1) and the opaque keyset cursor. */
export const ListQuery = z.object({
  page: orElse(z.coerce.number().int().min(1).max(100_000), 1),
  cursor: z.string().max(200).optional(),
});

/** `/:uid` in a path: the person a follow, block or mute is about. */
export const UidParam = z.object({ uid: Id });

/**
 * A list of one person's things, asked for by id (`uid`) or by the name in a page's address
 * (`username`): a profile then asks for the person and the list side by side, in one round trip.
 * Extend it, then `.refine(...OWNER_REQUIRED)`.
 */
export const OwnerListQuery = ListQuery.extend({
  uid: idField("uid is required").optional(),
  // An empty name is no name: then uid is required.
  username: z
    .string()
    .max(100)
    .optional()
    .transform((s) => s || undefined),
});
export const OWNER_REQUIRED: [
  (q: { uid?: number; username?: string }) => boolean,
  { path: string[]; message: string },
] = [(q) => q.uid !== undefined || q.username !== undefined, { path: ["uid"], message: "uid is required" }];

/**
 * A text of several lines (a description): newlines kept, blank when absent, at most `max`
 * characters (`tooLong` says so), no control characters (`name` says which field).
 */
export const multiLineText = (name: string, max: number, tooLong: string) =>
  z
    .string()
    .default("")
    .transform(multiLine)
    .pipe(
      z
        .string()
        .max(max, tooLong)
        .refine((s) => !hasControl(s), `${name} ${CONTROL_MESSAGE}`),
    );
