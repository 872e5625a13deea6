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
  total: number;
  done: number;
  failed: number;
  failures: { row: number; item: string; reason: string }[];
  created_at: number;
  finished_at: number | null;
}

/** Still to be worked on: the consumer goes on, the page keeps reading it. */
export const isLive = (state: string) => state === "queued" || state === "running";
