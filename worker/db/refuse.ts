// A check that stops a write batch from inside it (issue 19: a write in one D1 round trip). D1 runs
// a batch as one transaction, so a statement that fails rolls back every statement of the batch,
// the ones before it included. SQLite has no RAISE outside triggers; json_extract with an invalid
// path is an error whose message carries the path, so `refusal("not_found")` fails its statement
// with "bad JSON path: 'nx:not_found'". A CASE evaluates only the branch it takes, so the error
// happens only when the check fails. The write's own statements then need no guard of their own.
import { type SQL, sql } from "drizzle-orm";

const PREFIX = "nx:";

/** SQL text of an expression that fails its statement, and so its batch, with `code` (a-z, 0-9, _). */
export const refusalText = (code: string): string => {
  if (!/^[a-z0-9_]+$/.test(code)) throw new Error(`bad refusal code ${code}`);
  return `json_extract('{}', '${PREFIX}${code}')`;
};

/** refusalText as drizzle SQL. */
export const refusal = (code: string): SQL => sql.raw(refusalText(code));

/** The refusal code an error carries (a D1 error, or one wrapping it as its cause), or null. */
export function refusalOf(err: unknown): string | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const m = /bad JSON path: '?nx:([a-z0-9_]+)/.exec(e.message);
    if (m) return m[1];
  }
  return null;
}

/**
 * Runs a batch whose statements may refuse, answering each refusal code with the error `errors`
 * maps it to. Any other error passes through.
 */
export async function refusing<T>(run: Promise<T>, errors: Record<string, () => Error>): Promise<T> {
  try {
    return await run;
  } catch (err) {
    const code = refusalOf(err);
    const mapped = code === null ? undefined : errors[code];
    throw mapped ? mapped() : err;
  }
}
