// Mastodon's CSV exports imported as jobs (worker/features/imports/jobs.ts): the upload is checked
// whole and answered at once, the rows are done by the import queue's consumer a chunk per message
// (remote addresses looked up there, never in the request), a duplicate delivery is counted once,
// a lost message is sent again by the cron, a job can be cancelled, "overwrite" removes what the
// file does not name, and the person is notified when it is done. Two instances (tests/fediverse.ts):
// a.test imports, b.test holds the people elsewhere. Every fixture is built here.
import { createMessageBatch, createExecutionContext, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appToken, instance, MemoryQueue, migrate, one, type Person, person, routeFetch } from "../fediverse";
import worker from "../worker";

const A = instance("a.test", env.DB);
const B = instance("b.test", env.DB_B);
const jobs = new MemoryQueue();
A.env.IMPORT_QUEUE = jobs as unknown as Queue<unknown>;
let unroute: () => void;
let ada: Person;
let eve: Person;
const locals: Person[] = [];
let fingers = 0;

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch([
    A,
    {
      host: B.host,
      fetch: (r) => {
        if (r.url.includes("/.well-known/webfinger")) fingers++;
        return B.fetch(r);
      },
    },
  ]);
  ada = await person(A, "adaimport");
  eve = await person(A, "eveother");
  for (let i = 0; i < 24; i++) locals.push(await person(A, `local${String(i).padStart(2, "0")}`));
  await person(B, "bobfar"); // someone on b.test for the lists to name
}, 120_000);
afterAll(() => unroute());

let seq = 0;
/** Runs the import queue's consumer until nothing is left; answers how many messages it took. */
async function drainJobs(max = 50) {
  let steps = 0;
  for (; steps < max && jobs.items.length; steps++) {
    const body = jobs.items.shift();
    const batch = createMessageBatch("notex-imports", [{ id: `j${seq++}`, timestamp: new Date(), attempts: 1, body }]);
    await worker.queue(batch, A.env);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.retryMessages).toEqual([]);
  }
  return steps;
}

const BOM = "\uFEFF";

async function upload(who: Person, kind: string, csv: string | Uint8Array, mode = "merge", name = `${kind}.csv`) {
  const form = new FormData();
  form.set("kind", kind);
  form.set("mode", mode);
  form.set("file", new File([csv as BlobPart], name, { type: "text/csv" }));
  const token = who.token;
  const res = await A.fetch(
    new Request(`${A.origin}/v1/imports/mastodon`, {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${token}`, "cf-connecting-ip": "10.9.9.9" },
    }),
  );
  return { status: res.status, body: (await res.json()) as any };
}

const follows = (a: number, b: number) =>
  one(A, "select count(*) as n from follows where follower_id = ? and followee_id = ?", a, b);
const jobCount = () => one(A, "select count(*) as n from import_jobs where user_id = ?", ada.id);

describe("import jobs", () => {
  it("a follows CSV is answered at once and done by the queue in chunks, addresses elsewhere looked up there", async () => {
    const lines = [
      "Account address,Show boosts,Notify on new posts,Languages",
      ...locals.map((p) => `${p.username}@a.test,true,false,`),
      "bobfar@b.test,false,true,en",
      "nobody@b.test,true,false,",
      `${locals[0].username}@a.test,true,false,`,
    ];
    const before = fingers;
    const res = await upload(ada, "following", BOM + lines.join("\r\n"));
    expect(res.status).toBe(202);
    // The total is the rows that will be imported; the one refused on reading is apart, with why.
    expect(res.body).toMatchObject({ kind: "following", state: "queued", total: 26, done: 0, failed: 0, refused: 1 });
    expect(res.body.refusals).toEqual([
      { row: 28, item: `${locals[0].username}@a.test`, reason: "a duplicate of row 2" },
    ]);
    expect(res.body.failures).toEqual([]);
    // Nothing was done, nor looked up, in the request.
    expect(fingers).toBe(before);
    expect(await follows(ada.id, locals[0].id)).toBe(0);
    expect(jobs.items).toEqual([{ job: res.body.id, from: 0 }]);
    const mid = await (async () => {
      await drainJobs(1);
      return (await ada.call("GET", `/v1/imports/jobs/${res.body.id}`)).body;
    })();
    expect(mid).toMatchObject({ state: "running", done: 20, total: 26 });
    await drainJobs();
    const done = (await ada.call("GET", `/v1/imports/jobs/${res.body.id}`)).body;
    // done + failed is the total: every row to import was tried, once.
    expect(done).toMatchObject({ state: "done", total: 26, done: 25, failed: 1, refused: 1 });
    expect(done.failures).toEqual([{ row: 27, item: "nobody@b.test", reason: "no such account could be found" }]);
    expect(done.refusals).toHaveLength(1);
    expect(fingers).toBeGreaterThan(before);
    for (const p of locals) expect(await follows(ada.id, p.id)).toBe(1);
    const bobHere = await one(A, "select id as n from users where username = 'bobfar@b.test'");
    expect(await follows(ada.id, bobHere)).toBe(1);
    expect(await one(A, "select count(*) as n from import_rows where job_id = ?", res.body.id)).toBe(0);
    // Told when done, on the site; a Mastodon app is never shown a notice it has no type for.
    const notis = (await ada.call("GET", "/v1/notifications")).body.notis;
    expect(notis.filter((n: { action: string }) => n.action === "import")).toHaveLength(1);
    const token = await appToken(A, ada);
    const masto = await A.fetch(
      new Request(`${A.origin}/api/v1/notifications`, { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(masto.status).toBe(200);
    expect((await masto.json()) as unknown[]).toEqual([]);
  });

  it("a chunk delivered twice is done twice and counted once", async () => {
    const res = await upload(ada, "mutes", `Account address,Hide notifications\n${locals[1].username}@a.test,true\n`);
    expect(res.status).toBe(202);
    const [message] = jobs.items;
    jobs.items.push(structuredClone(message));
    await drainJobs();
    const job = (await ada.call("GET", `/v1/imports/jobs/${res.body.id}`)).body;
    expect(job).toMatchObject({ state: "done", done: 1, failed: 0 });
    expect(await one(A, "select count(*) as n from mutes where muter_id = ?", ada.id)).toBe(1);
  });

  it("a job whose message was lost is sent again from its cursor by the cron", async () => {
    const res = await upload(ada, "blocks", `${locals[2].username}@a.test\n${locals[3].username}@a.test\n`);
    jobs.items.splice(0);
    const { resumeStalled } = await import("../../worker/features/imports/jobs.consumer");
    expect(await resumeStalled(A.env, Date.now())).toBe(0);
    expect(await resumeStalled(A.env, Date.now() + 11 * 60_000)).toBe(1);
    await drainJobs();
    expect((await ada.call("GET", `/v1/imports/jobs/${res.body.id}`)).body).toMatchObject({ state: "done", done: 2 });
    expect(await one(A, "select count(*) as n from blocks where blocker_id = ?", ada.id)).toBe(2);
  });

  it("a cancelled job does nothing more, and only its owner sees or cancels it", async () => {
    const res = await upload(
      ada,
      "blocks",
      locals
        .slice(4, 8)
        .map((p) => `${p.username}@a.test`)
        .join("\n"),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((await eve.call("GET", `/v1/imports/jobs/${res.body.id}`)).status).toBe(404);
    expect((await eve.call("POST", `/v1/imports/jobs/${res.body.id}/cancel`)).status).toBe(404);
    const cancelled = await ada.call("POST", `/v1/imports/jobs/${res.body.id}/cancel`);
    expect(cancelled.body, JSON.stringify(cancelled.body)).toMatchObject({ state: "cancelled", done: 0 });
    await drainJobs();
    expect(
      await one(A, "select count(*) as n from blocks where blocker_id = ? and blocked_id = ?", ada.id, locals[4].id),
    ).toBe(0);
    expect((await ada.call("GET", `/v1/imports/jobs/${res.body.id}`)).body.state).toBe("cancelled");
  });

  it("overwrite leaves exactly the follows the file names", async () => {
    const keep = [locals[10], locals[11]];
    const res = await upload(ada, "following", keep.map((p) => `${p.username}@a.test`).join("\n"), "overwrite");
    expect(res.status).toBe(202);
    await drainJobs();
    expect((await ada.call("GET", `/v1/imports/jobs/${res.body.id}`)).body.state).toBe("done");
    const now = await A.env.DB.prepare("select followee_id as id from follows where follower_id = ? order by 1")
      .bind(ada.id)
      .all<{ id: number }>();
    expect(now.results.map((r) => r.id)).toEqual(keep.map((p) => p.id));
  });

  it("bookmarks: post links here are bookmarked; a link that is no post is listed with why", async () => {
    const note = await locals[12].call("POST", "/v1/notes", { label: "work", content: "<p>keep this</p>" });
    const url = `${A.origin}/${locals[12].username}/note/${note.body.note.id}`;
    const res = await upload(ada, "bookmarks", `${url}\n${A.origin}/nothing/here\n`);
    await drainJobs();
    const job = (await ada.call("GET", `/v1/imports/jobs/${res.body.id}`)).body;
    expect(job).toMatchObject({ state: "done", done: 1, failed: 1 });
    expect(await one(A, "select count(*) as n from bookmarks where user_id = ? and kind = 'note'", ada.id)).toBe(1);
  });
});

describe("blocked servers (blocked_domains.csv)", () => {
  const servers = async (who: Person) =>
    (
      await A.env.DB.prepare("select host from user_domain_blocks where user_id = ? order by host")
        .bind(who.id)
        .all<{ host: string }>()
    ).results.map((r) => r.host);

  it("merge blocks each server the file names (and cuts the follows with its people); overwrite leaves exactly the file's", async () => {
    const carol = await person(A, "carolservers");
    expect((await carol.call("POST", "/v1/domain-blocks", { domain: "kept.example" })).status).toBe(200);
    const bobHere = (await carol.call("GET", "/v1/users/bobfar@b.test")).body.id;
    expect((await carol.call("POST", `/v1/follows/${bobHere}`)).status).toBe(200);
    const merged = await upload(carol, "domain_blocks", `${BOM}b.test\n*.spam.example\nnot a domain\nb.test\n`);
    expect(merged.status, JSON.stringify(merged.body)).toBe(202);
    await drainJobs();
    const job = (await carol.call("GET", `/v1/imports/jobs/${merged.body.id}`)).body;
    expect(job).toMatchObject({ kind: "domain_blocks", state: "done", total: 2, done: 2, failed: 0, refused: 2 });
    expect(await servers(carol)).toEqual(["b.test", "kept.example", "spam.example"]);
    expect(await follows(carol.id, bobHere)).toBe(0);

    const over = await upload(carol, "domain_blocks", "spam.example\nnew.example\n", "overwrite");
    expect(over.status).toBe(202);
    await drainJobs();
    expect((await carol.call("GET", `/v1/imports/jobs/${over.body.id}`)).body.state).toBe("done");
    expect(await servers(carol)).toEqual(["new.example", "spam.example"]);
  });
});

describe("bad files get a clear answer and change nothing", () => {
  const cases: [string, string, string | Uint8Array, number, RegExp][] = [
    [
      "a header without an address column",
      "following",
      "Name,Email\nAda,ada@example.com\n",
      422,
      /no “Account address” column/,
    ],
    [
      "the wrong kind of file",
      "following",
      "https://b.test/@bob/1\nhttps://b.test/@bob/2\n",
      422,
      /not account addresses/,
    ],
    ["an empty file", "blocks", "\n\n", 422, /empty/],
    ["a binary file", "blocks", new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 1, 2]), 422, /not a CSV/],
    ["an oversized file", "blocks", "a@b.test\n".repeat(300_000), 413, /too large/],
    ["a kind there is none of", "followers", "a@b.test\n", 422, /what the file holds/],
  ];
  for (const [what, kind, body, status, message] of cases)
    it(what, async () => {
      const before = await jobCount();
      const res = await upload(ada, kind, body);
      expect(res.status).toBe(status);
      expect(res.body.message).toMatch(message);
      expect(await jobCount()).toBe(before);
    });

  it("semicolons and a BOM are read as Mastodon's own file", async () => {
    const res = await upload(
      ada,
      "mutes",
      `${BOM}Account address;Hide notifications\r\n${locals[13].username}@a.test;false\r\n`,
    );
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ total: 1, failed: 0 });
    await drainJobs();
  });

  it("no file at all", async () => {
    const form = new FormData();
    form.set("kind", "blocks");
    const token = ada.token;
    const res = await A.fetch(
      new Request(`${A.origin}/v1/imports/mastodon`, {
        method: "POST",
        body: form,
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(res.status).toBe(400);
  });
});
