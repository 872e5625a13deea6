// Every counted, notified, federated interaction (worker/features/interactions/counted.ts) reaches
// every door from its one entry: its notice's words and icon, a Mastodon notification type or an
// explicit null (not sent to apps), an activity the inbox and the outbox handle or an explicit null
// (not federated), a table a deleted account is drained from (cascading with its content) or "notes".
// And no door names a kind by hand: a kind listed in a door's own code is a kind a newcomer adds
// there too, which is what the declaration is for.
import { getTableName } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sourceOf } from "./sources";
import { ICONS } from "../../app/components/icons";
import { ACTIVITIES } from "../../worker/features/federation/activities";
import { COUNTED, ROW_KINDS } from "../../worker/features/interactions/counted";
import { CONTENT_TABLES, ROWS } from "../../worker/features/interactions/kinds";

/** Mastodon's notification types (its Notification entity, 4.5). */
const MASTODON_TYPES = [
  "mention",
  "status",
  "reblog",
  "follow",
  "follow_request",
  "favourite",
  "poll",
  "update",
  "admin.sign_up",
  "admin.report",
  "severed_relationships",
  "moderation_warning",
  "quote",
  "quoted_update",
];

/** The doors that read the declaration, each by its path from the repository's root. */
const DOORS = [
  "app/routes/notifications.tsx",
  "worker/features/notifications/notifications.links.ts",
  "worker/features/notifications/notifications.service.ts",
  "worker/features/mastodon/notifications.routes.ts",
  "worker/features/accounts/delete.service.ts",
];

/**
 * The doors that handle a kind with a table of its own (a like) from its entry alone; a renote is a
 * note, which the inbox, the outbox and the live fan-out handle with a note's own code.
 */
const ROW_DOORS = [
  "worker/features/federation/inbox.ts",
  "worker/features/federation/outbox.ts",
  "worker/features/federation/context.ts",
  "worker/features/federation/sent.ts",
  "worker/features/live/fanout.ts",
];

/** A door's code without its comments (prose may name a kind). */
const bare = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

/** The words a door's code names as strings or as an object's keys. */
const named = (code: string) => {
  const strings = [...bare(code).matchAll(/(["'`])([a-z_]+)\1/g)].map((m) => m[2]);
  const keys = [...bare(code).matchAll(/^\s*([a-z_]+):\s/gm)].map((m) => m[1]);
  return new Set([...strings, ...keys]);
};

describe.each(COUNTED.map((k) => [k.name, k] as const))("the counted kind %s", (_, kind) => {
  it("has its notice's verb and an icon the app draws", () => {
    expect(kind.notice.verb).toMatch(/^[a-z]+ed$/);
    expect(ICONS).toContain(kind.notice.icon);
  });

  it("is a Mastodon notification type, or says it is not sent to apps (null)", () => {
    if (kind.mastodon !== null) expect(MASTODON_TYPES).toContain(kind.mastodon);
  });

  it("is federated as an activity the inbox and the outbox know, or says it is not (null)", () => {
    if (kind.activity !== null) expect(ACTIVITIES[kind.activity]).toBeTypeOf("function");
  });

  it("is drained with a deleted account from a table that goes with its content, or is a note", () => {
    if (kind.rows === "notes") return;
    expect(CONTENT_TABLES.map((t) => getTableName(t))).toContain(kind.rows);
    expect(ROW_KINDS.map((k) => k.name)).toContain(kind.name);
    // The server's entry names the same table: the write, the inbox and the outbox read that one.
    expect(ROWS.filter((r) => r.kind.name === kind.name).map((r) => getTableName(r.table))).toEqual([kind.rows]);
  });

  it.each(ROW_DOORS)(
    "has a table of its own, and is named by hand in no door that reads it from its entry: %s",
    (door) => {
      if (kind.rows === "notes") return;
      const words = named(sourceOf(door));
      expect(words.has(kind.name), `${door} names "${kind.name}"`).toBe(false);
      expect(words.has(kind.rows), `${door} names "${kind.rows}"`).toBe(false);
      // Nor its activity's class: the inbox listens and the outbox builds from the entry.
      if (kind.activity)
        expect(bare(sourceOf(door)), `${door} names ${kind.activity}`).not.toMatch(
          new RegExp(`\\b${kind.activity}\\b`),
        );
    },
  );

  it.each(DOORS)("is named by hand in no door: %s", (door) => {
    const words = named(sourceOf(door));
    expect(words.has(kind.name), `${door} names "${kind.name}"`).toBe(false);
    // Its table, for a kind with one of its own ("notes" is every note's).
    if (kind.rows !== "notes") expect(words.has(kind.rows), `${door} names "${kind.rows}"`).toBe(false);
  });
});
