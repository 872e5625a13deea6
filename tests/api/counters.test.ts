import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { COUNTERS } from "../../worker/db/recount";
import { type TestUser, users } from "../factories";

// Issue 8 §8: counters stay equal to their rows under concurrent mixed writes, and the recount
// statements behind `npm run recount` find and repair any drift.

/** Counter name → rows whose counter is wrong (all zero when everything is exact). */
async function drift(): Promise<Record<string, number>> {
  const res = await env.DB.batch(COUNTERS.map((c) => env.DB.prepare(c.check)));
  return Object.fromEntries(COUNTERS.map((c, i) => [c.name, (res[i].results[0] as { n: number }).n]));
}
const exact = () => Object.fromEntries(COUNTERS.map((c) => [c.name, 0]));
const run = (sql: string) => env.DB.prepare(sql).run();

async function network() {
  const people = await users(8);
  const [author] = people;
  const folder = (await author.post("/v1/folders", { type: "Project", name: `Counted ${Date.now()}` })).body;
  const notes: number[] = [];
  for (const label of ["idea", "idea", "tip"]) {
    const res = await author.post("/v1/notes", { label, content: `<p>${label} #count</p>`, folders: [folder.id] });
    notes.push(res.body.note.id);
  }
  return { people, author, notes, folder };
}

describe("counters", () => {
  it("stay equal to their rows through 100 concurrent mixed likes, follows, renotes and replies", async () => {
    const { people, author, notes, folder } = await network();
    const [n1, n2] = notes;
    const replyTo = (await people[1].post("/v1/replies", { parent: -n1, content: "<p>root</p>" })).body.id;
    const ops: ((u: TestUser, i: number) => Promise<unknown>)[] = [
      (u) => u.post(`/v1/likes/${n1}?t=note`),
      (u) => u.delete(`/v1/likes/${n1}?t=note`),
      (u) => u.post(`/v1/likes/${replyTo}?t=reply`),
      (u) => u.delete(`/v1/likes/${replyTo}?t=reply`),
      (u) => u.post(`/v1/likes/${folder.id}?t=project`),
      (u) => u.post(`/v1/follows/${author.id}`),
      (u) => u.delete(`/v1/follows/${author.id}`),
      (u) => u.post("/v1/renotes", { renote_id: n2, content: "" }),
      async (u) => {
        const r = await u.post("/v1/replies", { parent: replyTo, content: "<p>racing</p>" });
        if (r.body?.id && Math.random() < 0.5) await u.delete(`/v1/replies/${r.body.id}`);
      },
      (u, i) => u.post("/v1/replies", { parent: -n2, content: `<p>reply ${i}</p>` }),
    ];
    const calls = Array.from({ length: 100 }, (_, i) => {
      const who = people[1 + (i % (people.length - 1))];
      return ops[(i * 7) % ops.length](who, i);
    });
    await Promise.all(calls);
    expect(await drift()).toEqual(exact());
    // And the counters the API shows agree with the rows.
    const note = (await author.get(`/v1/notes/${author.username}/${n1}`)).body;
    const likes = await env.DB.prepare("select count(*) as n from likes where kind = 'note' and target_id = ?")
      .bind(n1)
      .first<{ n: number }>();
    expect(note.likenum).toBe(likes?.n);
  });

  it("recount finds every kind of drift and repairs it", async () => {
    const { author, notes, people, folder } = await network();
    await people[1].post(`/v1/likes/${notes[0]}?t=note`);
    await people[1].post(`/v1/follows/${author.id}`);
    const reply = (await people[2].post("/v1/replies", { parent: -notes[0], content: "<p>r</p>" })).body.id;
    await people[3].post("/v1/replies", { parent: reply, content: "<p>rr</p>" });
    expect(await drift()).toEqual(exact());

    await run(`update notes set likenum = likenum + 5, repnum = 9, renum = 2 where id = ${notes[0]}`);
    await run(`update replies set repnum = 0, likenum = 3 where id = ${reply}`);
    await run(`update folders set notenum = 0, likenum = 4 where id = ${folder.id}`);
    await run(
      `update users set follower_num = 0, following_num = 3, note_num = 1, noti_num = 50 where id = ${author.id}`,
    );
    await run(`delete from user_labels where user_id = ${author.id} and label = 'idea'`);
    await run(`insert into user_types (user_id, type, n) values (${author.id}, 'Ghost', 2)`);
    await run(`update folder_labels set n = n + 1 where folder_id = ${folder.id}`);
    const found = await drift();
    for (const c of COUNTERS) expect(found[c.name], c.name).toBeGreaterThan(0);

    await env.DB.batch(COUNTERS.flatMap((c) => c.repair).map((sql) => env.DB.prepare(sql)));
    expect(await drift()).toEqual(exact());
    const me = (await author.get("/v1/me")).body;
    expect(JSON.parse(me.jstats)).toMatchObject({ follower: 1, following: 0, note: 3 });
    expect(JSON.parse(me.jslabel)).toMatchObject({ idea: 2, tip: 1 });
  });
});
