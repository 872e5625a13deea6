// What the pages show of an import job (jobs.ts): kept apart so a page's own code can use it
// without bringing the job machinery into the browser's bundle.

/** What the page and /v1 show of a job. */
export interface JobView {
  id: number;
  kind: string;
  title: string;
  mode: "merge" | "overwrite";
  state: "queued" | "running" | "done" | "cancelled" | "failed";
  file_name: string;
  /** The rows to import: each ends done or failed, so done + failed reaches it. */
  total: number;
  done: number;
  failed: number;
  /** The first rows that failed, with why. */
  failures: { row: number; item: string; reason: string }[];
  /** Rows the upload's own check left out (never in the total), and the first of them with why. */
  refused: number;
  refusals: { row: number; item: string; reason: string }[];
  created_at: number;
  finished_at: number | null;
}

/** Still to be worked on: the consumer goes on, the page keeps reading it. */
export const isLive = (state: string) => state === "queued" || state === "running";
