import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestUser, users } from "../factories";
import { tripsOf } from "../../worker/db/meter";
import { MERGE_MAX } from "../../worker/features/feed/feed.service";
import { Client } from "../http";
import { appToken } from "../mastodon";

// Issue 9 §4: every hot list and detail is answered from indexes. The statements are the ones the
// API really sends (recorded at the D1 binding while the calls run), explained with their own
// parameters; a full SCAN of a table or a temp B-tree for ORDER BY fails the test.

interface Recorded {
  sql: string;
  params: unknown[];
}
let recorded: Recorded[] = [];
const original = env.DB.prepare.bind(env.DB);
const originalSession = env.DB.withSession.bind(env.DB);

/** A statement from `prepare` that records its SQL and bound parameters. */
function recording(prepare: (sql: string) => D1PreparedStatement) {
  return (sql: string) => {
    const stmt = prepare(sql);
    const entry: Recorded = { sql, params: [] };
    recorded.push(entry);
    const bind = stmt.bind.bind(stmt);
    stmt.bind = (...params: unknown[]) => {
      entry.params = params;
      return bind(...params);
    };
    return stmt;
  };
}

beforeAll(() => {
  (env.DB as { prepare: typeof env.DB.prepare }).prepare = recording(original);
  // Requests run on a D1 session (worker/db/replicas.ts): its statements are recorded the same way.
  (env.DB as { withSession: typeof env.DB.withSession }).withSession = (arg?: string) => {
    const session = originalSession(arg);
    const prepare = session.prepare.bind(session);
    (session as { prepare: typeof session.prepare }).prepare = recording(prepare);
    return session;
  };
});
afterAll(() => {
  (env.DB as { prepare: typeof env.DB.prepare }).prepare = original;
  (env.DB as { withSession: typeof env.DB.withSession }).withSession = originalSession;
});

let tableNames: Set<string> | null = null;
async function tables() {
  if (!tableNames) {
    const { results } = await original("select name from sqlite_master where type = 'table'").all<{ name: string }>();
    tableNames = new Set(results.map((r) => r.name));
  }
  return tableNames;
}

/** The plan problems of every SELECT recorded while `call` ran (`ranked`: a bounded sort by relevance is expected). */
async function plansOf(call: () => Promise<{ status: number }>, ranked = false) {
  recorded = [];
  const res = await call();
  expect(res.status).toBeLessThan(400);
  const selects = recorded.filter((r) => /^\s*select/i.test(r.sql));
  expect(selects.length).toBeGreaterThan(0);
  const problems: string[] = [];
  for (const s of selects) {
    const { results } = await original(`explain query plan ${s.sql}`)
      .bind(...s.params)
      .all<{ detail: string }>();
    for (const { detail } of results) {
      // A scan of a stored table (not of a CTE's own rows) without an index reads the whole table.
      // An FTS5 table read through MATCH (index string "M…") walks the index, not the table.
      const scanned = /^SCAN (\w+)(?! USING| VIRTUAL TABLE INDEX \d+:M)/.exec(detail)?.[1];
      // An fts5vocab term list read with term >= and term < (idxNum bits 0x200 and 0x400) is a range.
      const vocabRange = /VIRTUAL TABLE INDEX (\d+):/.exec(detail);
      const ranged = scanned?.endsWith("_fts_terms") && vocabRange && (Number(vocabRange[1]) & 0x600) === 0x600;
      const fullScan = scanned && !ranged && (await tables()).has(scanned);
      // A search sorts by bm25, which no index holds, over at most MAX_RANKED matches (search.service.ts).
      const sorted = /USE TEMP B-TREE FOR ORDER BY/.test(detail) && !ranked;
      if (fullScan || sorted) problems.push(`${detail}  ←  ${s.sql}`);
    }
  }
  return problems;
}

describe("query plans of the hot reads", () => {
  let a: TestUser;
  let b: TestUser;
  let c: TestUser;
  let noteId = 0;
  let replyId = 0;
  let folderSlug = "";
  let folderId = 0;

  beforeAll(async () => {
    [a, b] = await users(2);
    const folder = (await a.post("/v1/folders", { type: "Skill", name: `Plans ${Date.now()}` })).body;
    folderSlug = folder.slug;
    folderId = folder.id;
    for (let i = 0; i < 5; i++) {
      const res = await a.post("/v1/notes", {
        label: "idea",
        content: `<p>plan ${i} #plans @${b.username}</p>`,
        folders: [folder.id],
      });
      noteId = res.body.note.id;
    }
    await b.post(`/v1/follows/${a.id}`);
    // c's following feed takes the walk (more followed than the merge takes), b's the merge.
    [c] = await users(1);
    await c.post(`/v1/follows/${a.id}`);
    await original("update users set following_num = ?2 where id = ?1")
      .bind(c.id, MERGE_MAX + 1)
      .run();
    await b.post(`/v1/likes/${noteId}?t=note`);
    let parent = -noteId;
    for (let i = 0; i < 5; i++) {
      parent = (await (i % 2 ? a : b).post("/v1/replies", { parent, content: `<p>r${i}</p>` })).body.id;
    }
    replyId = parent;
    await b.post(`/v1/bookmarks/${noteId}?t=note`);
    // Issue 16: the reader blocks one user and mutes another, so every list runs its block and
    // mute filters (indexed NOT EXISTS keyed on the viewer) against real rows.
    const [blocked, muted] = await users(2);
    await blocked.post("/v1/notes", { label: "idea", content: "<p>blocked #plans</p>" });
    await muted.post("/v1/notes", { label: "idea", content: "<p>muted #plans</p>" });
    await b.post(`/v1/blocks/${blocked.id}`);
    await b.post(`/v1/mutes/${muted.id}`);
    // The reader also blocked a whole server, one of whose people posted and liked: every list
    // runs the server filter (two primary-key lookups per row) against real rows.
    const [far] = await users(1);
    await original(
      "insert into remote_actors (user_id, uri, host, inbox, url, fetched_at) values (?1, 'https://plans.example/u', 'plans.example', 'https://plans.example/i', '', 0)",
    )
      .bind(far.id)
      .run();
    await far.post("/v1/notes", { label: "idea", content: "<p>afar #plans</p>" });
    await far.post(`/v1/likes/${noteId}?t=note`);
    await b.post("/v1/domain-blocks", { domain: "other.example" });
    await b.post("/v1/domain-blocks", { domain: "plans.example" });
    // People to follow by topic walk the candidates with b's chosen topics.
    await b.request("PUT", "/v1/interests", { topics: ["ideas", "ai"] });
    await a.patch("/v1/notes", {
      id: noteId,
      label: "idea",
      content: "<p>plan edited #plans</p>",
      folders: [folder.id],
    });
  });

  const calls: [string, () => Promise<{ status: number }>][] = [
    ["discover page 1", () => b.get("/v1/discover?page=1")],
    ["discover page 2", () => b.get("/v1/discover?page=2")],
    ["following feed", () => b.get("/v1/feeds?page=1")],
    ["following feed, many followed (the walk)", () => c.get("/v1/feeds?page=1")],
    ["a user's notes with an x-label", () => b.get(`/v1/notes?uid=${a.id}&xlabel=idea&page=1`)],
    ["note detail", () => b.get(`/v1/notes/${a.username}/${noteId}`)],
    ["replies of a note", () => b.get(`/v1/replies?pid=${-noteId}&page=1`)],
    ["a note's conversation as a tree", () => b.get(`/v1/replies/thread?pid=${-noteId}&page=1`)],
    [
      "a note's conversation with a reply in focus",
      () => b.get(`/v1/replies/thread?pid=${-noteId}&page=1&focus=${replyId}`),
    ],
    ["reply detail (ancestor chain)", () => b.get(`/v1/replies/${replyId}/username/${b.username}`)],
    ["tag page", () => b.get("/v1/tags/plans?page=1")],
    ["x-label page", () => b.get("/v1/labels/idea?page=1")],
    ["folders of a user", () => b.get(`/v1/folders?uid=${a.id}&sort=type&page=1`)],
    ["folders of a user by name, newest first", () => b.get(`/v1/folders?username=${a.username}&sort=time&page=1`)],
    ["a user's notes by name", () => b.get(`/v1/notes?username=${a.username}&page=1`)],
    ["a user's notes by name with an x-label", () => b.get(`/v1/notes?username=${a.username}&xlabel=idea&page=1`)],
    ["folder detail", () => b.get(`/v1/folders/${folderSlug}/user/${a.username}`)],
    ["folder notes", () => b.get(`/v1/folders/${folderId}/notes?page=1`)],
    ["folder notes with an x-label", () => b.get(`/v1/folders/${folderId}/notes?label=idea&page=1`)],
    ["folder notes by address", () => b.get(`/v1/folders/${folderSlug}/user/${a.username}/notes?page=1`)],
    [
      "folder notes by address with an x-label",
      () => b.get(`/v1/folders/${folderSlug}/user/${a.username}/notes?label=idea&page=1`),
    ],
    ["notifications", () => a.get("/v1/notifications?page=1")],
    ["notifications: mentions", () => a.get("/v1/notifications?page=1&t=mentions")],
    ["bookmarks", () => b.get("/v1/bookmarks?t=note&page=1")],
    ["followers", () => b.get(`/v1/follows/${a.id}/followers?page=1`)],
    ["me", () => b.get("/v1/me")],
    ["people to follow, by the topics chosen", () => b.get("/v1/interests/people")],
    ["blocked users", () => b.get("/v1/blocks?page=1")],
    ["muted users", () => b.get("/v1/mutes?page=1")],
    ["blocked servers", () => b.get("/v1/domain-blocks?page=1")],
    ["notifications of a reader who blocked a server", () => b.get("/v1/notifications?page=1")],
    ["note history", () => b.get(`/v1/notes/${noteId}/history`)],
    ["search notes", () => b.get("/v1/search?q=plan%20pla&t=notes")],
    ["search notes page 2", () => b.get("/v1/search?q=plan&t=notes&page=2")],
    ["search replies", () => b.get("/v1/search?q=r1&t=replies")],
    ["search folders", () => b.get("/v1/search?q=plans&t=folders")],
    ["search people", () => b.get(`/v1/search?q=${a.username.slice(0, 4)}&t=users`)],
    ["search people by name", () => b.get("/v1/search?q=test%20us&t=users")],
    ["search people by a later word of the name", () => b.get("/v1/search?q=user&t=users")],
    ["mention suggestions", () => b.get(`/v1/search?q=${a.username.slice(0, 3)}&t=users&suggest=1`)],
  ];
  // Mention suggestions rank two bounded windows of people (followed first): a sort of at most 80 rows.
  const ranked = new Set([
    "search notes",
    "search notes page 2",
    "search replies",
    "search folders",
    "mention suggestions",
  ]);
  it.each(calls)("%s: no full scans, no temp B-tree for ordering", async (name, call) => {
    const problems = await plansOf(call, ranked.has(name));
    if (problems.length) console.log(problems.join("\n\n"));
    expect(problems).toEqual([]);
  });

  // Each read is one D1 round trip (worker/db/meter.ts counts them into Server-Timing); the bearer
  // token's session is read from KV, not D1.
  it.each(calls)("%s: one D1 round trip", async (name, call) => {
    const res = (await call()) as { status: number; headers: Headers };
    expect(res.status, name).toBe(200);
    expect(tripsOf(res.headers.get("server-timing")), name).toBe(1);
  });

  // The Mastodon API's own lists (worker/features/mastodon) read along indexes too.
  describe("Mastodon lists", () => {
    const reader = new Client();
    const owner = new Client();
    const writer = new Client();
    beforeAll(async () => {
      reader.token = (await appToken(b, "read")).token;
      owner.token = (await appToken(a, "read")).token;
      writer.token = (await appToken(b, "read write")).token;
      const post = async (status: string, in_reply_to_id?: string) =>
        (await writer.post("/api/v1/statuses", { status, in_reply_to_id })).body.id as string;
      own.note = await post("mine");
      own.reply = await post("my reply", own.note);
      own.goneReply = await post("a reply to go", own.note);
      own.gone = await post("to go");
    });
    const own = { note: "", reply: "", gone: "", goneReply: "" };
    const mastoCalls: [string, () => Promise<{ status: number }>][] = [
      ["bookmarks", () => reader.get("/api/v1/bookmarks")],
      ["favourites", () => reader.get("/api/v1/favourites")],
      ["favourited_by", () => reader.get(`/api/v1/statuses/${noteId}/favourited_by`)],
      ["reblogged_by", () => reader.get(`/api/v1/statuses/${noteId}/reblogged_by`)],
      ["notifications of one type", () => owner.get("/api/v1/notifications?types[]=favourite")],
      ["notifications below a notice", () => owner.get("/api/v1/notifications?max_id=999999")],
      ["notifications", () => owner.get("/api/v1/notifications")],
      ["home timeline", () => reader.get("/api/v1/timelines/home")],
      ["home timeline above a status", () => reader.get(`/api/v1/timelines/home?min_id=${noteId}`)],
      ["notifications above a notice", () => owner.get("/api/v1/notifications?min_id=1")],
      ["public timeline above a status", () => reader.get(`/api/v1/timelines/public?min_id=${noteId}`)],
      ["tag timeline above a status", () => reader.get(`/api/v1/timelines/tag/plans?min_id=${noteId}`)],
      ["an account's statuses above a status", () => reader.get(`/api/v1/accounts/${a.id}/statuses?min_id=${noteId}`)],
      ["suggestions", () => reader.get("/api/v1/suggestions")],
      ["blocked servers", () => reader.get("/api/v1/domain_blocks?limit=1")],
      ["blocked servers above one", () => reader.get("/api/v1/domain_blocks?min_id=1")],
      ["a status", () => reader.get(`/api/v1/statuses/${noteId}`)],
      ["a reply status", () => reader.get(`/api/v1/statuses/${replyId}`)],
      ["a note's context", () => reader.get(`/api/v1/statuses/${noteId}/context`)],
      ["a reply's context", () => reader.get(`/api/v1/statuses/${replyId}/context`)],
      ["public timeline", () => reader.get("/api/v1/timelines/public")],
      ["public timeline below a status", () => reader.get(`/api/v1/timelines/public?max_id=${noteId}`)],
      ["tag timeline below a status", () => reader.get(`/api/v1/timelines/tag/plans?max_id=${noteId}`)],
      ["an account's statuses below a status", () => reader.get(`/api/v1/accounts/${a.id}/statuses?max_id=${noteId}`)],
      // A write's batch reads the status back after it: those reads are indexed too.
      ["favourite", () => writer.post(`/api/v1/statuses/${noteId}/favourite`)],
      ["favourite a reply", () => writer.post(`/api/v1/statuses/${replyId}/favourite`)],
      ["unfavourite", () => writer.post(`/api/v1/statuses/${noteId}/unfavourite`)],
      ["bookmark", () => writer.post(`/api/v1/statuses/${noteId}/bookmark`)],
      ["unbookmark", () => writer.post(`/api/v1/statuses/${noteId}/unbookmark`)],
      ["reblog", () => writer.post(`/api/v1/statuses/${noteId}/reblog`)],
      ["unreblog", () => writer.post(`/api/v1/statuses/${noteId}/unreblog`)],
      ["edit", () => writer.request("PUT", `/api/v1/statuses/${own.note}`, { status: "edited" })],
      ["edit a reply", () => writer.request("PUT", `/api/v1/statuses/${own.reply}`, { status: "edited" })],
      ["delete a reply", () => writer.delete(`/api/v1/statuses/${own.goneReply}`)],
      ["delete", () => writer.delete(`/api/v1/statuses/${own.gone}`)],
      ["a status's history", () => reader.get(`/api/v1/statuses/${noteId}/history`)],
      ["a status's source", () => writer.get(`/api/v1/statuses/${own.note}/source`)],
      ["post a status", () => writer.post("/api/v1/statuses", { status: "posted" })],
      ["post a reply", () => writer.post("/api/v1/statuses", { status: "replied", in_reply_to_id: own.note })],
    ];
    it.each(mastoCalls)("%s: no full scans, no temp B-tree for ordering", async (_name, call) => {
      const problems = await plansOf(call);
      if (problems.length) console.log(problems.join("\n\n"));
      expect(problems).toEqual([]);
    });

    // A search sorts its bounded window by relevance, as /v1's does; its accounts and statuses
    // are read on its own rows.
    it("search: no full scans, only the ranked sort", async () => {
      const problems = await plansOf(() => reader.get("/api/v2/search?q=plan&offset=15"), true);
      if (problems.length) console.log(problems.join("\n\n"));
      expect(problems).toEqual([]);
    });

    // The token is read from KV as /v1's sessions are: no D1 trip before the request's own work. A
    // list of statuses reads its authors' accounts and the viewer's bookmarks on its own rows.
    it("costs no D1 trip for the token; a timeline is one", async () => {
      const trips = async (path: string) => tripsOf((await reader.get(path)).headers.get("server-timing"));
      expect(await trips("/api/v1/accounts/verify_credentials")).toBe(1);
      expect(await trips("/api/v1/timelines/home")).toBe(1);
      expect(await trips("/api/v1/timelines/public")).toBe(1);
    });
  });
});
