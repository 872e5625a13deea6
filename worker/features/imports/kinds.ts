// The kinds of import the job machinery (jobs.ts) runs, each loaded only by the queue consumer.
import type { ActionContext } from "../federation/federate";
import { PART } from "./archive/stage";

/** A job as the consumer hands it to its kind. */
export interface JobInfo {
  id: number;
  userId: number;
  kind: string;
  mode: "merge" | "overwrite";
  origin: string;
  total: number;
}

/**
 * What one row came to: imported (with what it named, kept for an overwrite), or not, with why
 * (shown to the person as it is written here).
 */
export type RowResult =
  | { ok: true; target?: number; targetKind?: string; warning?: string }
  | { ok: false; reason: string };

export interface ImportKind {
  /** One row's work. It may run twice for the same row (at-least-once delivery): it must be idempotent. */
  row(ctx: ActionContext, job: JobInfo, data: unknown): Promise<RowResult>;
  /** A chunk's rows together, one result each in order (a kind that writes a chunk as one batch). */
  rows?(ctx: ActionContext, job: JobInfo, data: unknown[]): Promise<RowResult[]>;
  /**
   * Overwrite only, after every row: undo at most `limit` of what the person had that the rows did
   * not name (their `target`s); answers how many it undid (fewer than `limit`: nothing is left).
   */
  prune?(ctx: ActionContext, job: JobInfo, limit: number): Promise<number>;
}

export interface KindEntry {
  /** Rows per queue message: a message's work stays well inside a consumer invocation. */
  chunk: number;
  /** A title for the pages ("Follows"). */
  title: string;
  load(): Promise<ImportKind>;
}

/** Every kind, by the name a job row carries. */
export const KINDS: Record<string, KindEntry> = {
  following: { chunk: 20, title: "Follows", load: async () => (await import("./mastodon-kinds")).following },
  blocks: { chunk: 25, title: "Blocks", load: async () => (await import("./mastodon-kinds")).blocks },
  mutes: { chunk: 25, title: "Mutes", load: async () => (await import("./mastodon-kinds")).mutes },
  domain_blocks: {
    chunk: 50,
    title: "Blocked servers",
    load: async () => (await import("./mastodon-kinds")).domainBlocks,
  },
  archive: {
    chunk: PART,
    title: "Mastodon archive",
    load: async () => (await import("./archive/archive.kind")).archive,
  },
  bookmarks: { chunk: 20, title: "Bookmarks", load: async () => (await import("./mastodon-kinds")).bookmarks },
};
