// Issue 8: the authorisation matrix, generated from the API's own route list (tests/fuzz.ts). Every
// mutating /v1 route is called with a well-formed request aimed at the owner's real resources, by a
// visitor and by another signed-in user; each refused call must leave every table byte-for-byte as it
// was (a snapshot before and after each call). The fuzz suites send hostile input to made-up ids;
// this sends valid input to real ones, where a missing ownership check would actually bite. The
// owner's (or fan's) own identical call succeeds, so a refusal is authorisation, not bad input.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { snapshot } from "../db-snapshot";
import { listSessions } from "../../worker/lib/sessions";
import { type TestUser, user } from "../factories";
import { routes } from "../fuzz";
import { BASE, Client, type Res } from "../http";
import { type World, world } from "../world";

interface Fixture extends World {
  /** An empty folder of the owner's (a filled one cannot be deleted even by its owner). */
  emptyFolderId: number;
  /** The id of a second session of the owner's (another device). */
  ownerSessionId: string;
  /** A user with the moderator role (issue 16). */
  moderator: TestUser;
  /** A registered Mastodon app, and the id of the owner's token for it (Settings → Authorised apps). */
  appClientId: string;
  ownerAppTokenId: string;
  /** An archive the owner uploaded, staged for its preview (Settings → Import → Mastodon archive). */
  ownerArchiveId: string;
  /** An import job of the owner's, still queued (Settings → Import). */
  ownerJobId: number;
}

/**
 * What another signed-in user's identical call must do:
 * - refused: 404 (ownership lives in the query's where), nothing changes;
 * - noop: 2xx and nothing changes — it can only undo the caller's own interaction, which does not exist;
 * - self: 2xx on the caller's own account only, whatever ids the body names; the owner's rows stay;
 * - open: any signed-in user may do it to public content (like, reply, follow…): not a refusal;
 * - forbidden: moderators only; everyone else gets 403 and nothing changes.
 */
type Other = "refused" | "noop" | "self" | "open" | "forbidden";
interface Case {
  call: (f: Fixture) => [path: string, body?: unknown];
  other: Other;
  /** Who may make this very call (it must succeed for them): the owner, or the fan whose interaction it undoes. */
  control?: "owner" | "fan" | "moderator";
}

const noteBody = (f: Fixture, content: string) => ({ label: "idea", content, folders: [f.folderId] });
const folderBody = { type: "Company", name: "Taken Over", descr: "", link: "" };

const CASES: Record<string, Case> = {
  "PATCH /v1/notes": {
    call: (f) => ["/v1/notes", { id: f.noteId, ...noteBody(f, "<p>x</p>") }],
    other: "refused",
    control: "owner",
  },
  "DELETE /v1/notes/:id": { call: (f) => [`/v1/notes/${f.noteId}`], other: "refused", control: "owner" },
  "PATCH /v1/folders/:id": {
    call: (f) => [`/v1/folders/${f.folderId}`, folderBody],
    other: "refused",
    control: "owner",
  },
  "DELETE /v1/folders/:id": { call: (f) => [`/v1/folders/${f.emptyFolderId}`], other: "refused", control: "owner" },
  "PATCH /v1/replies": {
    call: (f) => ["/v1/replies", { id: f.ownReplyId, content: "<p>x</p>" }],
    other: "refused",
    control: "owner",
  },
  "DELETE /v1/replies/:id": { call: (f) => [`/v1/replies/${f.ownReplyId}`], other: "refused", control: "owner" },
  "DELETE /v1/renotes/:id": { call: (f) => [`/v1/renotes/${f.noteId}`], other: "noop", control: "fan" },
  "DELETE /v1/likes/:id": { call: (f) => [`/v1/likes/${f.noteId}?t=note`], other: "noop", control: "fan" },
  "DELETE /v1/follows/:uid": { call: (f) => [`/v1/follows/${f.owner.id}`], other: "noop", control: "fan" },
  "DELETE /v1/bookmarks/:id": { call: (f) => [`/v1/bookmarks/${f.noteId}?t=note`], other: "noop", control: "fan" },
  // Before the email change below, which sends a link itself (asking again waits a minute).
  "POST /v1/email/confirm": {
    call: (f) => ["/v1/email/confirm", { id: f.owner.id, email: f.owner.email }],
    other: "self",
  },
  // Mass assignment: the owner's id in the body must not redirect the write.
  "PATCH /v1/users": {
    call: (f) => ["/v1/users", { name: "Taken Over", descr: "", id: f.owner.id, uid: f.owner.id }],
    other: "self",
  },
  "PATCH /v1/users/username": {
    call: (f) => ["/v1/users/username", { username: `x${f.owner.id}zz${Date.now() % 1e6}`, id: f.owner.id }],
    other: "self",
  },
  "PATCH /v1/users/email": {
    call: (f) => [
      "/v1/users/email",
      { email: `taken${Date.now() % 1e6}@evil.example`, password: "secret123", id: f.owner.id },
    ],
    other: "self",
  },
  "PATCH /v1/users/password": {
    call: (f) => ["/v1/users/password", { password: "secret123", new_password: "takeover1", id: f.owner.id }],
    other: "self",
  },
  "POST /v1/notes": { call: () => ["/v1/notes", { label: "idea", content: "<p>mine</p>" }], other: "open" },
  // Imports read the caller's own upload and write x-folders of the caller's own.
  "POST /v1/imports/linkedin/preview": { call: () => ["/v1/imports/linkedin/preview", {}], other: "open" },
  "POST /v1/imports/linkedin": { call: () => ["/v1/imports/linkedin", { items: [] }], other: "open" },
  // A Mastodon archive is staged under the caller's own id: someone else's is not found.
  "POST /v1/imports/archive": { call: () => ["/v1/imports/archive", {}], other: "open" },
  // A link to send an archive by is anyone's to ask for; what arrives by it is read only by its owner.
  "POST /v1/imports/archive/uploads": { call: () => ["/v1/imports/archive/uploads", { size: 1000 }], other: "open" },
  "POST /v1/imports/archive/:id/received": {
    call: (f) => [`/v1/imports/archive/${f.ownerArchiveId}/received`],
    other: "refused",
  },
  "DELETE /v1/imports/archive/:id": { call: (f) => [`/v1/imports/archive/${f.ownerArchiveId}`], other: "refused" },
  "POST /v1/imports/archive/:id/start": {
    call: (f) => [`/v1/imports/archive/${f.ownerArchiveId}/start`, { profile: "keep" }],
    other: "refused",
  },
  // A Mastodon CSV starts a job of the caller's own (an empty upload is a 400 for anyone).
  "POST /v1/imports/mastodon": { call: () => ["/v1/imports/mastodon", {}], other: "open" },
  "POST /v1/imports/jobs/:id/cancel": {
    call: (f) => [`/v1/imports/jobs/${f.ownerJobId}/cancel`],
    other: "refused",
    control: "owner",
  },
  // Moving accounts act on the caller's own account: its aliases, its move (which needs the new
  // account to list it, so another user's call is a 422 that changes nothing: moves.test.ts).
  "POST /v1/moves/aliases": {
    call: (f) => ["/v1/moves/aliases", { handle: `${f.owner.username}@notex.test` }],
    other: "self",
  },
  // (The other user's POST above named the owner as their alias: their DELETE removes their own row.)
  "DELETE /v1/moves/aliases": { call: (f) => [`/v1/moves/aliases?uri=${BASE}/ap/users/${f.owner.id}`], other: "self" },
  "POST /v1/moves": {
    call: (f) => ["/v1/moves", { handle: `${f.owner.username}@notex.test`, password: "secret123" }],
    other: "open",
  },
  // Issue 21 item 17: slots for the caller's own next note, reserved before it is saved.
  "POST /v1/uploads": { call: () => ["/v1/uploads", { uploads: [{ file_size: 10, file_ext: "png" }] }], other: "open" },
  "POST /v1/renotes": { call: (f) => ["/v1/renotes", { renote_id: f.noteId, content: "" }], other: "open" },
  "POST /v1/likes/:id": { call: (f) => [`/v1/likes/${f.noteId}?t=note`], other: "open" },
  "POST /v1/follows/:uid": { call: (f) => [`/v1/follows/${f.owner.id}`], other: "open" },
  "POST /v1/folders": { call: () => ["/v1/folders", { ...folderBody, name: "Mine" }], other: "open" },
  "POST /v1/bookmarks/:id": { call: (f) => [`/v1/bookmarks/${f.noteId}?t=note`], other: "open" },
  "POST /v1/reports": { call: (f) => ["/v1/reports", { nid: f.noteId, kind: 1, t: "note" }], other: "open" },
  "POST /v1/replies": { call: (f) => ["/v1/replies", { parent: -f.noteId, content: "<p>hi</p>" }], other: "open" },
  "POST /v1/notifications/read": { call: () => ["/v1/notifications/read"], other: "open" },
  // Issue 17: sessions, confirmation mail and deletion act on the caller's own account only.
  "DELETE /v1/sessions/:id": { call: (f) => [`/v1/sessions/${f.ownerSessionId}`], other: "refused", control: "owner" },
  "DELETE /v1/sessions": { call: () => ["/v1/sessions"], other: "noop" },
  // Mastodon apps: consent makes a code for the caller only; revoking names the caller's own token.
  "POST /v1/oauth/authorize": {
    call: (f) => [
      "/v1/oauth/authorize",
      { response_type: "code", client_id: f.appClientId, redirect_uri: APP_REDIRECT, scope: "read" },
    ],
    other: "self",
  },
  "DELETE /v1/oauth/apps/:id": {
    call: (f) => [`/v1/oauth/apps/${f.ownerAppTokenId}`],
    other: "refused",
    control: "owner",
  },
  // Deleting one's own account moves counters on others' content by design (account-deletion.test.ts).
  "DELETE /v1/users": { call: (f) => ["/v1/users", { password: "secret123", id: f.owner.id }], other: "open" },
  // Issue 16: anyone may block or mute anyone; undoing what one never did changes nothing.
  "PATCH /v1/users/theme": { call: () => ["/v1/users/theme", { theme: "dark" }], other: "self" },
  // The owner's id in the body must not redirect whose topics are written.
  "PUT /v1/interests": { call: (f) => ["/v1/interests", { topics: ["ai"], id: f.owner.id }], other: "self" },
  "POST /v1/domain-blocks": { call: () => ["/v1/domain-blocks", { domain: "matrix.example" }], other: "self" },
  "DELETE /v1/domain-blocks/:domain": { call: () => ["/v1/domain-blocks/matrix.example"], other: "self" },
  "POST /v1/blocks/:uid": { call: (f) => [`/v1/blocks/${f.owner.id}`], other: "open" },
  "DELETE /v1/blocks/:uid": { call: (f) => [`/v1/blocks/${f.owner.id}`], other: "noop" },
  "POST /v1/mutes/:uid": { call: (f) => [`/v1/mutes/${f.owner.id}`], other: "open" },
  "DELETE /v1/mutes/:uid": { call: (f) => [`/v1/mutes/${f.owner.id}`], other: "noop" },
  "POST /v1/moderation/actions": {
    call: (f) => ["/v1/moderation/actions", { kind: "note", id: f.noteId, action: "hide", reason: "Spam" }],
    other: "forbidden",
    control: "moderator",
  },
  // Moderators block and lift whole servers (federation-safety.test.ts has what a block does).
  "POST /v1/moderation/domains": {
    call: () => ["/v1/moderation/domains", { domain: "matrix.example", reason: "Spam server" }],
    other: "forbidden",
    control: "moderator",
  },
  "DELETE /v1/moderation/domains/:domain": {
    call: () => ["/v1/moderation/domains/matrix.example"],
    other: "forbidden",
    control: "moderator",
  },
};
/** Open to visitors by design; aimed at the owner's account they must still change nothing. */
const PUBLIC: Record<string, { call: (f: Fixture) => [string, unknown]; status: number }> = {
  "POST /v1/login": {
    call: (f) => ["/v1/login", { username: f.owner.username, password: "not-the-one" }],
    status: 401,
  },
  // A forged link and an unknown address change nothing (the real flows: mail-accounts.test.ts).
  "POST /v1/email/verify": { call: () => ["/v1/email/verify", { token: "A".repeat(43) }], status: 400 },
  "POST /v1/password/reset": {
    call: () => ["/v1/password/reset", { token: "A".repeat(43), password: "takeover1" }],
    status: 400,
  },
  "POST /v1/password/forgot": {
    call: () => ["/v1/password/forgot", { email: "nobody.here@example.com" }],
    status: 200,
  },
  // The signed link is the authority (no session): a forged one changes nothing.
  "PUT /v1/imports/archive/uploads/:uid/:id": {
    call: (f) => [`/v1/imports/archive/uploads/${f.owner.id}/${"0".repeat(24)}?exp=1&max=10&sig=00`, {}],
    status: 403,
  },
  "POST /v1/signup": {
    call: (f) => [
      "/v1/signup",
      { email: f.owner.email, name: "Twin", username: f.owner.username, password: "secret123" },
    ],
    status: 409,
  },
};

const APP_REDIRECT = "https://app.example/cb";

/** A Mastodon app holding a token for the owner (the consent and token exchange of mastodon-oauth.test.ts). */
async function ownerApp(owner: TestUser) {
  const app = (await new Client().post("/api/v1/apps", { client_name: "Matrix", redirect_uris: APP_REDIRECT })).body;
  const saved = owner.token;
  owner.token = null;
  const consent = { response_type: "code", client_id: app.client_id, redirect_uri: APP_REDIRECT };
  const { code } = (await owner.post("/v1/oauth/authorize", consent)).body;
  owner.token = saved;
  const grant = { grant_type: "authorization_code", code, redirect_uri: APP_REDIRECT };
  await new Client().post("/oauth/token", { ...grant, client_id: app.client_id, client_secret: app.client_secret });
  const listed = await owner.get("/v1/oauth/apps");
  return { appClientId: app.client_id as string, ownerAppTokenId: listed.body.apps[0].id as string };
}

const mutating = routes.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
const split = (key: string) => key.split(" ") as [string, string];

async function fixture(): Promise<Fixture> {
  const w = await world();
  const empty = await w.owner.post("/v1/folders", { ...folderBody, name: "Empty Co" });
  await new Client().post("/v1/login", { username: w.owner.username, password: w.owner.password });
  const second = (await listSessions(env.SESSIONS, w.owner.id))[0];
  // The sign-up confirmation links count as sent over a minute ago, so asking again is allowed.
  await env.DB.prepare("update account_tokens set created_at = created_at - 61000").run();
  const moderator = await user();
  await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(moderator.id).run();
  const job = await env.DB.prepare(
    "insert into import_jobs (user_id, kind, origin, total) values (?, 'blocks', 'http://notex.test', 1) returning id",
  )
    .bind(w.owner.id)
    .first<{ id: number }>();
  const ownerArchiveId = "a".repeat(24);
  await env.IMAGES.put(
    `imports/${w.owner.id}/${ownerArchiveId}/staged.json`,
    JSON.stringify({ id: ownerArchiveId, counts: {}, left: [], profile: {}, parts: 0, urls: [] }),
  );
  return {
    ownerArchiveId,
    ownerJobId: job?.id ?? 0,
    ...w,
    emptyFolderId: empty.body.id,
    ownerSessionId: second?.id ?? "",
    moderator,
    ...(await ownerApp(w.owner)),
  };
}

/** Calls as `who` and answers the response and whether any table changed. */
async function attempt(who: Client, method: string, [path, body]: [string, unknown?]) {
  const before = await snapshot();
  const res: Res = await who.request(method, path, body);
  return {
    res,
    changed: (await snapshot()) !== before,
    shown: `${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`,
  };
}

describe("authorisation matrix (issue 8)", () => {
  it("covers every mutating route of the API", () => {
    expect(mutating.length).toBeGreaterThan(20);
    expect(mutating.filter((k) => !(k in CASES) && !(k in PUBLIC))).toEqual([]);
    expect(Object.keys({ ...CASES, ...PUBLIC }).filter((k) => !mutating.includes(k))).toEqual([]);
  });

  it("a visitor is refused on every mutating route and changes nothing", async () => {
    const f = await fixture();
    const v = new Client();
    for (const [key, c] of Object.entries(CASES)) {
      const [method] = split(key);
      const { res, changed, shown } = await attempt(v, method, c.call(f));
      expect.soft(res.status, shown).toBe(401);
      expect.soft(changed, `${shown}: changed the database`).toBe(false);
    }
    for (const [key, p] of Object.entries(PUBLIC)) {
      const { res, changed, shown } = await attempt(v, split(key)[0], p.call(f));
      expect.soft(res.status, shown).toBe(p.status);
      expect.soft(changed, `${shown}: changed the database`).toBe(false);
    }
  });

  it("another user is refused on the owner's resources, and undoing others' interactions changes nothing", async () => {
    const f = await fixture();
    const ownerRows = () =>
      env.DB.batch(
        ["users where id = ?", "notes where user_id = ?", "folders where user_id = ?", "replies where user_id = ?"].map(
          (q) => env.DB.prepare(`select * from ${q} order by rowid`).bind(f.owner.id),
        ),
      ).then((r) => JSON.stringify(r.map((x) => x.results)));
    for (const [key, c] of Object.entries(CASES)) {
      if (c.other === "open") continue;
      const [method] = split(key);
      const owned = await ownerRows();
      const { res, changed, shown } = await attempt(f.other, method, c.call(f));
      if (res.body?.token) f.other.token = res.body.token; // a password change starts a new session
      if (c.other === "refused" || c.other === "forbidden") {
        expect.soft(res.status, shown).toBe(c.other === "refused" ? 404 : 403);
        expect.soft(changed, `${shown}: changed the database`).toBe(false);
      } else if (c.other === "noop") {
        expect.soft(res.status, shown).toBe(200);
        expect.soft(changed, `${shown}: changed the database`).toBe(false);
      } else {
        expect.soft(res.status, shown).toBe(200);
        expect.soft(changed, `${shown}: should have changed the caller's own account`).toBe(true);
        expect.soft(await ownerRows(), `${shown}: touched the owner's rows`).toBe(owned);
      }
    }
    // A quote cannot be edited into someone else's note either: POST with an id is refused.
    const post = await attempt(f.other, "POST", ["/v1/notes", { id: f.noteId, ...noteBody(f, "<p>x</p>") }]);
    expect(post.res.status, post.shown).toBe(422);
    expect(post.changed).toBe(false);
  });

  it("a stolen token and cookie are refused on every mutating route once the owner logs out everywhere", async () => {
    const f = await fixture();
    const thief = new Client();
    thief.token = f.owner.token;
    thief.cookie = f.owner.cookie;
    expect((await thief.get("/v1/me")).status).toBe(200);
    expect((await f.owner.get("/v1/logout?all=1")).status).toBe(200);
    for (const [key, c] of Object.entries(CASES)) {
      const { res, changed, shown } = await attempt(thief, split(key)[0], c.call(f));
      expect.soft(res.status, shown).toBe(401);
      expect.soft(changed, `${shown}: changed the database`).toBe(false);
    }
  });

  it("the same calls succeed for the owner (or the fan whose interaction they undo)", async () => {
    const f = await fixture();
    // Edits first, then deletes, the note's own last (it takes its replies, likes and renotes along).
    const rank = (key: string) => (key === "DELETE /v1/notes/:id" ? 2 : key.startsWith("DELETE") ? 1 : 0);
    const controlled = Object.entries(CASES)
      .filter(([, c]) => c.control)
      .sort(([a], [b]) => rank(a) - rank(b));
    expect(controlled.length).toBe(16);
    for (const [key, c] of controlled) {
      const who: TestUser = c.control === "owner" ? f.owner : c.control === "moderator" ? f.moderator : f.fan;
      const { res, changed, shown } = await attempt(who, split(key)[0], c.call(f));
      expect.soft(res.status, shown).toBe(200);
      expect.soft(changed, `${shown}: changed nothing`).toBe(true);
    }
  });
});
