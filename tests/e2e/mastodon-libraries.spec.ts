// Mastodon client libraries NoteX did not write, over real HTTP against the running worker:
// megalodon (the library behind Whalebird) and tsl-mastodon-api. Each one detects the server,
// registers, gets a token through the consent page (JavaScript off), uploads an image sent as
// application/octet-stream, posts it, edits the status keeping its media, catches up with min_id,
// and reads the instance's streaming URL without choking on it.
import { createReadStream, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import axios from "axios";
import generator, { detector } from "megalodon";
import { API } from "tsl-mastodon-api";
import OAuth from "tsl-mastodon-api/lib/OAuth.js";
import { baseURL } from "../../playwright.config";
import { PNG } from "../images";
import { expect, test, uniq } from "./fixtures";
import { consentCode, REDIRECT } from "./mastodon-consent";

test("megalodon: detector, OAuth, octet-stream upload, edit keeping media, min_id catch-up", async ({
  browser,
  js,
}) => {
  test.skip(js, "the consent page is used with JavaScript off");
  test.setTimeout(120_000);
  const headers = { "x-test-client": uniq("g") };
  const http = () => axios.create({ timeout: 20_000, headers });
  // Whalebird's first step: what kind of server is this?
  expect(await detector(baseURL, http())).toBe("mastodon");
  const anon = generator("mastodon", baseURL, null, null, http());
  const app = await anon.registerApp("megalodon e2e", {
    redirect_uris: REDIRECT,
    scopes: ["read", "write", "follow"],
  });
  const { account, code } = await consentCode(browser, app.client_id, "megalodon e2e");
  const token = await anon.fetchAccessToken(app.client_id, app.client_secret, code, REDIRECT);
  const client = generator("mastodon", baseURL, token.access_token, null, http());
  const me = await client.verifyAccountCredentials();
  expect(me.data.username).toBe(account.username);

  const instance = await client.getInstance();
  expect(instance.data.version).toMatch(/compatible; NoteX/);
  // megalodon's streaming set-up reads urls.streaming_api: a URL or no key, never null.
  expect(instance.data.urls?.streaming_api ?? undefined).not.toBeNull();

  // Whalebird uploads a file as a stream; form-data types a `.bin` one application/octet-stream.
  const path = join(tmpdir(), `${uniq("dot")}.bin`);
  writeFileSync(path, PNG);
  const media = await client.uploadMedia(createReadStream(path), { description: "A dot from megalodon" });
  expect(media.data.type).toBe("image");
  const posted = await client.postStatus("A picture from megalodon", { media_ids: [media.data.id] });
  const status = posted.data as { id: string; media_attachments: { id: string }[] };
  expect(status.media_attachments.map((m) => m.id)).toEqual([media.data.id]);
  // Whalebird resends the status's own attachments when it edits.
  const edited = await client.editStatus(status.id, {
    status: "A picture from megalodon, edited",
    media_ids: status.media_attachments.map((m) => m.id),
  });
  expect(edited.data.content).toContain("edited");
  expect(edited.data.media_attachments.map((m) => m.id)).toEqual([media.data.id]);

  // Catching up: everything above a status, page by page with min_id.
  const later: string[] = [];
  for (let i = 0; i < 5; i++) later.push((await client.postStatus(`Later ${i}`)).data.id as string);
  const seen: string[] = [];
  for (let from = status.id, n = 0; n < 5; n++) {
    const page = await client.getAccountStatuses(me.data.id, { min_id: from, limit: 2 });
    if (!page.data.length) break;
    seen.push(...page.data.map((s) => s.id).reverse());
    from = page.data[0].id;
  }
  expect(seen).toEqual(later);
});

test("tsl-mastodon-api: OAuth, octet-stream upload, post, edit keeping media, min_id", async ({ browser, js }) => {
  test.skip(js, "the consent page is used with JavaScript off");
  test.setTimeout(120_000);
  const app = await OAuth.createApp(`${baseURL}/api/v1/`, "tsl e2e", REDIRECT, "read write follow");
  const { account, code } = await consentCode(browser, app.client_id, "tsl e2e");
  const token = await OAuth.getAccessToken(baseURL, app.client_id, app.client_secret, code, REDIRECT);
  const api = new API({ access_token: token, api_url: `${baseURL}/api/v1/` });
  const me = await api.getAccount();
  expect(me.json.username).toBe(account.username);

  const file = new File([PNG], "picture.bin", { type: "application/octet-stream" });
  const media = await api.postMediaAttachment({ file, description: "A dot from tsl" } as never, true);
  expect(media.json.type).toBe("image");
  expect((media.json.meta?.original as { width?: number } | undefined)?.width).toBe(3);
  const posted = await api.postStatus({ status: "A picture from tsl", media_ids: [media.json.id] });
  const status = posted.json as { id: string; media_attachments: { id: string }[] };
  expect(status.media_attachments.map((m) => m.id)).toEqual([media.json.id]);
  const edited = await api.put(`statuses/${status.id}`, {
    status: "A picture from tsl, edited",
    media_ids: [media.json.id],
  });
  expect(edited.status).toBe(200);
  expect((edited.json as { media_attachments: unknown[] }).media_attachments).toHaveLength(1);

  const later = (await api.postStatus({ status: "Later from tsl" })).json as { id: string };
  const above = await api.getStatuses(me.json.id, { min_id: status.id });
  expect(above.json.map((s) => s.id)).toEqual([later.id]);
});
