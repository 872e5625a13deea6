// Issue 8: `npm run recount` — every counter checked against its rows and repaired. The SQL is the
// script's own (worker/db/recount.js); here it runs on the test D1 after corrupting every counter.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { COUNTERS } from "../../worker/db/recount.js";
import { repairCounters, wrongCounters } from "../counters";
import { snapshot } from "../db-snapshot";
import { world } from "../world";

/** Every table's rows in a stable order: a repaired count row may come back under a new rowid. */
const contents = async () =>
  (JSON.parse(await snapshot()) as [string, unknown[]][]).map(([t, rows]) => [
    t,
    rows.map((r) => JSON.stringify(r)).sort(),
  ]);

describe("recount (issue 8)", () => {
  it("finds nothing to fix after real API traffic", async () => {
    await world();
    expect(await wrongCounters()).toEqual([]);
    expect(await repairCounters()).toEqual([]);
  });

  it("finds every corrupted counter, repairs it to the exact row count and touches nothing else", async () => {
    const w = await world();
    const exact = await contents();
    // One corruption per counter, of each kind: too high, too low, a count row missing or extra.
    const corrupt: Record<string, string> = {
      "notes.likenum": `update notes set likenum = likenum + 3 where id = ${w.noteId}`,
      "notes.repnum": `update notes set repnum = 0 where id = ${w.noteId}`,
      "notes.renum": `update notes set renum = 7 where id = ${w.noteId}`,
      "replies.likenum": `update replies set likenum = 5 where id = ${w.replyId}`,
      "replies.repnum": `update replies set repnum = 0 where id = ${w.replyId}`,
      "folders.likenum": `update folders set likenum = 0 where id = ${w.folderId}`,
      "folders.notenum": `update folders set notenum = notenum + 2 where id = ${w.folderId}`,
      "folders.noted_at": `update folders set noted_at = 1 where id = ${w.folderId}`,
      "users.following_num": `update users set following_num = 9 where id = ${w.fan.id}`,
      "users.follower_num": `update users set follower_num = 0 where id = ${w.owner.id}`,
      "users.note_num": `update users set note_num = 0 where id = ${w.owner.id}`,
      "users.noti_num": `update users set noti_num = 42 where id = ${w.owner.id}`,
      "user_labels.n": `delete from user_labels where user_id = ${w.owner.id} and label = 'idea'`,
      "user_types.n": `insert into user_types (user_id, type, n) values (${w.fan.id}, 'Ghost', 3)`,
      "folder_labels.n": `update folder_labels set n = n + 1 where folder_id = ${w.folderId} and label = 'tip'`,
    };
    // A new counter column must be added to the audit and to this test.
    expect(Object.keys(corrupt).sort()).toEqual(COUNTERS.map((c) => c.name).sort());
    await env.DB.batch(Object.values(corrupt).map((s) => env.DB.prepare(s)));
    expect(await wrongCounters()).toEqual(COUNTERS.map((c) => `${c.name}: 1`));

    const fixed = await repairCounters();
    expect(fixed).toEqual(COUNTERS.map((c) => ({ counter: c.name, fixed: 1 })));
    expect(await wrongCounters()).toEqual([]);
    expect(await contents()).toEqual(exact);
    // And the API shows the true figures again.
    const note = (await w.owner.get(`/v1/notes/${w.noteId}`)).body;
    expect(note).toMatchObject({ likenum: 1, repnum: 2, renum: 2 });
    expect(JSON.parse((await w.owner.get("/v1/me")).body.jstats)).toMatchObject({ follower: 1, note: 2 });
  });

  it("counts every wrong row, and fixes rows it was not told about", async () => {
    const w = await world();
    await env.DB.prepare("update notes set likenum = likenum + 1").run();
    const notes = (await env.DB.prepare("select count(*) n from notes").first<{ n: number }>())!.n;
    expect(await wrongCounters()).toEqual([`notes.likenum: ${notes}`]);
    expect(await repairCounters()).toEqual([{ counter: "notes.likenum", fixed: notes }]);
    expect((await w.fan.get(`/v1/notes/${w.noteId}`)).body.likenum).toBe(1);
  });
});
