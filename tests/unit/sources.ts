// The product's code (worker and app) as text, for the tests that read it rather than run it:
// which doors call an action, which kinds are named, how batches are read, where SQL is raw.
const raw = import.meta.glob(["../../worker/**/*.ts", "../../app/**/*.{ts,tsx}"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** Each file's text by its path from the repository's root (`worker/features/…`). */
export const SOURCES: ReadonlyMap<string, string> = new Map(
  Object.entries(raw).map(([path, text]) => [path.replace(/^(\.\.\/)+/, ""), text]),
);

/** Code on one line (line breaks and their indentation as one space), for patterns that span lines. */
export const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ");

/** One file's text; a path that names no file is the test's own mistake, said at once. */
export function sourceOf(path: string): string {
  const text = SOURCES.get(path);
  if (text === undefined) throw new Error(`${path} does not exist`);
  return text;
}
