// A Mastodon app's whole day on NoteX, as Elk and the apps built on masto.js live it, over real HTTP
// against the running worker: masto.js registers the app, the person authorises it on the consent
// page in a browser with JavaScript off (PKCE S256), and the token posts with an image, follows,
// favourites, reblogs, bookmarks, replies, reads home/public/tag timelines across pages,
// notifications and search, edits, deletes, and is revoked.
import { type Browser, expect } from "@playwright/test";
import { createOAuthAPIClient, createRestAPIClient, type mastodon } from "masto";
import { baseURL } from "../../playwright.config";
import { PNG } from "../images";
import { test, uniq } from "./fixtures";
import { consentCode, REDIRECT } from "./mastodon-consent";

async function pkce() {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: Buffer.from(digest).toString("base64url") };
}

/** A new person, signed in in a browser with JavaScript off, who authorises `app`: its token. */
async function authorise(browser: Browser, app: mastodon.v1.Client) {
  const { verifier, challenge } = await pkce();
  const { account, code } = await consentCode(browser, app.clientId ?? "", "masto.js e2e", challenge);
  const oauth = createOAuthAPIClient({ url: baseURL });
  // masto.js sends camelCase params as snake_case: code_verifier goes with the code.
  const token = await oauth.token.create({
    grantType: "authorization_code",
    clientId: app.clientId ?? "",
    clientSecret: app.clientSecret ?? "",
    redirectUri: REDIRECT,
    code,
    codeVerifier: verifier,
  } as Parameters<typeof oauth.token.create>[0]);
  return { account, token: token.accessToken };
}

const client = (accessToken: string) =>
  createRestAPIClient({ url: baseURL, accessToken, requestInit: { headers: { "x-test-client": uniq("m") } } });

/** Every id a paginated list gives, following its Link header (at most `cap`). */
async function every<T extends { id: string }>(list: AsyncIterable<T[]>, cap = 200) {
  const ids: string[] = [];
  for await (const page of list) {
    ids.push(...page.map((x) => x.id));
    if (ids.length >= cap) break;
  }
  return ids;
}

test("a masto.js app: consent with PKCE (JavaScript off), then everything an app does, then revoke", async ({
  browser,
  js,
}) => {
  test.skip(js, "the consent page is used with JavaScript off; the consent spec covers it with JavaScript");
  test.setTimeout(120_000);
  const app = await createRestAPIClient({ url: baseURL }).v1.apps.create({
    clientName: "masto.js e2e",
    redirectUris: REDIRECT,
    scopes: "read write follow",
  });
  const a = await authorise(browser, app);
  const b = await authorise(browser, app);
  const alice = client(a.token);
  const bob = client(b.token);
  const me = await alice.v1.accounts.verifyCredentials();
  expect(me.username).toBe(a.account.username);

  // Post with an image (its alt text travels with it).
  const media = await alice.v2.media.create({ file: new Blob([PNG], { type: "image/png" }), description: "A dot" });
  const pictured = await alice.v1.statuses.create({ status: "A picture from masto.js", mediaIds: [media.id] });
  expect(pictured.mediaAttachments.map((m) => m.description)).toEqual(["A dot"]);

  // Follow, favourite, reblog, bookmark, reply.
  expect((await bob.v1.accounts.$select(me.id).follow()).following).toBe(true);
  expect((await bob.v1.statuses.$select(pictured.id).favourite()).favourited).toBe(true);
  expect((await bob.v1.statuses.$select(pictured.id).reblog()).reblog?.id).toBe(pictured.id);
  expect((await bob.v1.statuses.$select(pictured.id).bookmark()).bookmarked).toBe(true);
  const reply = await bob.v1.statuses.create({ status: "Nice picture", inReplyToId: pictured.id });
  expect(reply.inReplyToId).toBe(pictured.id);
  expect((await bob.v1.bookmarks.list()).map((s) => s.id)).toEqual([pictured.id]);

  // Timelines across pages: 25 more statuses under one tag.
  const tag = uniq("mt");
  const posted: string[] = [];
  for (let i = 0; i < 25; i++) posted.push((await alice.v1.statuses.create({ status: `Page ${i} #${tag}` })).id);
  const newest = [...posted].reverse();
  expect(await every(alice.v1.timelines.tag.$select(tag).list({ limit: 10 }))).toEqual(newest);
  const home = await every(bob.v1.timelines.home.list({ limit: 10 }), 30);
  expect(home.slice(0, 25)).toEqual(newest);
  // Other tests post at the same time: the public timeline holds these in order among theirs.
  const pub = await every(alice.v1.timelines.public.list({ limit: 20, local: true }), 100);
  expect(pub.filter((id) => posted.includes(id))).toEqual(newest);

  // Notifications: the follow, favourite, reblog and reply.
  const types = (await alice.v1.notifications.list()).map((n) => n.type);
  expect(types).toEqual(expect.arrayContaining(["follow", "favourite", "reblog", "mention"]));
  expect((await alice.v1.notifications.list({ types: ["follow"] })).map((n) => n.type)).toEqual(["follow"]);

  // Search: the account and the statuses.
  const found = await bob.v2.search.list({ q: "picture", type: "statuses" });
  expect(found.statuses.length).toBeGreaterThan(0);
  const people = await bob.v2.search.list({ q: a.account.username, type: "accounts" });
  expect(people.accounts.map((x) => x.id)).toContain(me.id);

  // Edit and delete.
  const edited = await alice.v1.statuses.$select(pictured.id).update({ status: "A picture, edited" });
  expect(edited.content).toContain("edited");
  expect((await alice.v1.statuses.$select(pictured.id).history.list()).length).toBe(2);
  await alice.v1.statuses.$select(posted[0]).remove();
  await expect(alice.v1.statuses.$select(posted[0]).fetch()).rejects.toMatchObject({ statusCode: 404 });

  // Revoked, the token is refused at once.
  await createOAuthAPIClient({ url: baseURL }).revoke({
    clientId: app.clientId ?? "",
    clientSecret: app.clientSecret ?? "",
    token: b.token,
  });
  await expect(bob.v1.accounts.verifyCredentials()).rejects.toMatchObject({ statusCode: 401 });
  expect((await alice.v1.accounts.verifyCredentials()).id).toBe(me.id);
});
