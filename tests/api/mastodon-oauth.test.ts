// The Mastodon client API's front door: instance, app registration, OAuth 2 with PKCE, tokens.
import { describe, expect, it } from "vitest";
import { user } from "../factories";
import { Client } from "../http";
import { mastodon } from "../../worker/features/mastodon/mastodon.routes";
import { openApiPath } from "../../worker/openapi";
import { appToken, consent, masto, pkce, REDIRECT, registerApp } from "../mastodon";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function tokenCall(body: Record<string, unknown> | string, headers: Record<string, string> = {}) {
  return new Client().post("/oauth/token", body, headers);
}

describe("Mastodon instance", () => {
  it("masto.js reads v1 and v2 instance with NoteX's limits", async () => {
    const v2 = await masto().v2.instance.fetch();
    expect(v2.version).toContain("NoteX");
    expect(v2.configuration.statuses.maxCharacters).toBe(2800);
    expect(v2.configuration.polls.maxOptions).toBe(0);
    expect(v2.configuration.mediaAttachments.supportedMimeTypes).toContain("image/png");
    const v1 = await masto().v1.instance.fetch();
    expect(v1.title).toBe("NoteX");
    expect(await masto().v1.customEmojis.list()).toEqual([]);
  });

  it("answers CORS for any origin, and never reads a cookie", async () => {
    const c = new Client();
    const pre = await c.request("OPTIONS", "/api/v1/statuses", undefined, {
      origin: "https://elk.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    const person = await user();
    person.token = null;
    // The person's own cookie on a Mastodon route counts for nothing.
    const me = await person.get("/api/v1/accounts/verify_credentials", { origin: "https://elk.example" });
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ error: "This method requires an authenticated user" });
    expect(me.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("the OpenAPI document lists the Mastodon routes with the scope each asks for", async () => {
    const doc = (await new Client().get("/v1/openapi.json")).body;
    expect(doc.paths["/api/v1/statuses"].post.security).toEqual([{ oauth: ["write:statuses"] }]);
    expect(doc.paths["/api/v1/timelines/public"].get.security).toEqual([{}, { oauth: ["read:statuses"] }]);
    expect(doc.paths["/api/v1/statuses/{id}/favourite"].post.parameters[0].name).toBe("id");
    for (const path of [
      "/api/v2/instance",
      "/api/v1/apps",
      "/oauth/token",
      "/oauth/revoke",
      "/api/v1/notifications",
      "/api/v2/search",
    ])
      expect(Object.keys(doc.paths), path).toContain(path);
    expect(doc.components.securitySchemes.oauth.type).toBe("oauth2");
    // Every route the Mastodon app answers is in the document (all but the catch-alls).
    const missing = mastodon.routes
      .filter((r) => r.method !== "ALL" && !r.path.endsWith("*"))
      .filter((r) => !doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    for (const path of [
      "/api/v1/accounts/update_credentials",
      "/api/v1/statuses/{id}/favourited_by",
      "/api/v1/markers",
      "/api/v1/notifications/{id}/dismiss",
      "/api/v2/media",
      "/api/v1/bookmarks",
      "/api/v1/accounts/lookup",
    ])
      expect(Object.keys(doc.paths), path).toContain(path);
  });

  it("unknown /api paths are JSON 404s; streaming is healthy; rate-limit headers are sent", async () => {
    const c = new Client();
    const res = await c.get("/api/v1/nothing/here");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Record not found" });
    expect(res.headers.get("x-ratelimit-limit")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-reset")).toBeTruthy();
    expect((await c.get("/api/v1/streaming/health")).body).toBe("OK");
  });
});

describe("Mastodon apps and OAuth", () => {
  it("registers an app from a form body and from JSON", async () => {
    const c = new Client();
    const res = await c.post(
      "/api/v1/apps",
      form({ client_name: "Form App", redirect_uris: REDIRECT, scopes: "read write" }),
      FORM,
    );
    expect(res.status).toBe(200);
    expect(res.body.client_id).toHaveLength(43);
    expect(res.body.scopes).toEqual(["read", "write"]);
    const app = await registerApp("read");
    expect(app.name).toBe("Test App");
    expect(app.clientSecret).toBeTruthy();
    const bad = await c.post("/api/v1/apps", { client_name: "x", redirect_uris: "javascript:alert(1)" });
    expect(bad.status).toBe(422);
    expect((await c.post("/api/v1/apps", { redirect_uris: REDIRECT })).status).toBe(422);
    expect(
      (await c.post("/api/v1/apps", { client_name: "x", redirect_uris: REDIRECT, scopes: "admin:everything" })).status,
    ).toBe(422);
  });

  it("a code with PKCE becomes a token masto.js uses; the code is single use", async () => {
    const person = await user();
    const app = await registerApp();
    const { verifier, challenge } = await pkce();
    const q = {
      client_id: app.clientId!,
      redirect_uri: REDIRECT,
      scope: "read write",
      state: "s1",
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    const shown = await new Client().get(`/v1/oauth/authorize?${form({ ...q, response_type: "code" })}`);
    expect(shown.status).toBe(200);
    expect(shown.body.app.name).toBe("Test App");
    expect(shown.body.scopes.map((s: { scope: string }) => s.scope)).toEqual(["read", "write"]);
    const { code, redirect } = await consent(person, q);
    expect(redirect).toBe(`${REDIRECT}?code=${code}&state=s1`);
    const exchange = {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    };
    // A wrong verifier spends nothing it should not: the code is gone either way (single use), so a second try is invalid too.
    const wrong = await tokenCall({ ...exchange, code_verifier: (await pkce()).verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");

    const again = await consent(person, q);
    const ok = await tokenCall(
      form({ ...exchange, code: again.code!, code_verifier: verifier } as Record<string, string>),
      FORM,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.token_type).toBe("Bearer");
    expect(ok.body.scope).toBe("read write");
    const reused = await tokenCall({ ...exchange, code: again.code, code_verifier: verifier });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");

    const me = await masto(ok.body.access_token).v1.accounts.verifyCredentials();
    expect(me.username).toBe(person.username);
    expect(me.id).toBe(String(person.id));
    expect(me.source?.note).toBe("");
  });

  it("refuses a redirect URI the app did not register, a foreign app's code and an unknown client", async () => {
    const person = await user();
    const app = await registerApp();
    const other = await registerApp();
    const bad = await consent(person, {
      client_id: app.clientId!,
      redirect_uri: "https://evil.example/cb",
      scope: "read",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_redirect_uri");
    const prefix = await consent(person, { client_id: app.clientId!, redirect_uri: `${REDIRECT}/more`, scope: "read" });
    expect(prefix.status).toBe(400);
    const { code } = await consent(person, { client_id: app.clientId!, redirect_uri: REDIRECT, scope: "read" });
    const stolen = await tokenCall({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: other.clientId,
      client_secret: other.clientSecret,
    });
    expect(stolen.status).toBe(400);
    // The rightful app can still not use it with the wrong redirect URI.
    const mismatch = await tokenCall({
      grant_type: "authorization_code",
      code,
      redirect_uri: `${REDIRECT}x`,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(mismatch.status).toBe(400);
    const unknown = await tokenCall({ grant_type: "client_credentials", client_id: "nope", client_secret: "nope" });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_client");
    const password = await tokenCall({
      grant_type: "password",
      username: person.username,
      password: person.password,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(password.status).toBe(400);
    expect(password.body.error).toBe("unsupported_grant_type");
    const scopeTooWide = await consent(person, {
      client_id: (await registerApp("read")).clientId!,
      redirect_uri: REDIRECT,
      scope: "write",
    });
    expect(scopeTooWide.status).toBe(400);
    expect(scopeTooWide.body.code).toBe("invalid_scope");
    // A visitor cannot consent.
    const visitor = await new Client().post("/v1/oauth/authorize", {
      response_type: "code",
      client_id: app.clientId,
      redirect_uri: REDIRECT,
    });
    expect(visitor.status).toBe(401);
  });

  it("out-of-band apps get the code shown, not redirected; client_credentials gives an app token", async () => {
    const person = await user();
    const app = await registerApp("read", "urn:ietf:wg:oauth:2.0:oob");
    const shown = await new Client().get(
      `/v1/oauth/authorize?${form({ client_id: app.clientId!, redirect_uri: "urn:ietf:wg:oauth:2.0:oob", response_type: "code" })}`,
    );
    expect(shown.body.out_of_band).toBe(true);
    const { code, redirect } = await consent(person, {
      client_id: app.clientId!,
      redirect_uri: "urn:ietf:wg:oauth:2.0:oob",
    });
    expect(redirect).toBeNull();
    expect(code).toHaveLength(43);
    const basic = btoa(`${app.clientId}:${app.clientSecret}`);
    const appOnly = await tokenCall({ grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
    expect(appOnly.status).toBe(200);
    const verified = await masto(appOnly.body.access_token).v1.apps.verifyCredentials();
    expect(verified.name).toBe("Test App");
    // An app token is nobody's: a person's endpoint says so.
    const c = new Client();
    c.token = appOnly.body.access_token;
    expect((await c.get("/api/v1/accounts/verify_credentials")).status).toBe(401);
  });

  it("scopes are enforced; revoke, password change and log out everywhere end a token at once", async () => {
    const person = await user();
    const { token } = await appToken(person, "read");
    const c = new Client();
    c.token = token;
    expect((await c.get("/api/v1/accounts/verify_credentials")).status).toBe(200);
    const write = await c.patch("/api/v1/accounts/update_credentials", { display_name: "Changed" });
    expect(write.status).toBe(403);
    expect(write.body.error).toMatch(/scope/);
    expect((await person.get("/v1/me")).body.fullname).not.toBe("Changed");

    const { app, token: t2 } = await appToken(person, "read write");
    const c2 = new Client();
    c2.token = t2;
    const changed = await c2.patch("/api/v1/accounts/update_credentials", { display_name: "Changed", note: "Hello" });
    expect(changed.status).toBe(200);
    expect(changed.body.display_name).toBe("Changed");
    const revoke = await new Client().post("/oauth/revoke", {
      client_id: app.clientId,
      client_secret: app.clientSecret,
      token: t2,
    });
    expect(revoke.status).toBe(200);
    expect((await c2.get("/api/v1/accounts/verify_credentials")).status).toBe(401);

    // The settings list shows the remaining app, and its Revoke works.
    const listed = await person.get("/v1/oauth/apps");
    expect(listed.body.apps).toHaveLength(1);
    expect(listed.body.apps[0].name).toBe("Test App");
    const { token: t3 } = await appToken(person, "read");
    const pw = await person.patch("/v1/users/password", {
      password: person.password,
      new_password: "another-secret-1",
    });
    expect([200, 204]).toContain(pw.status);
    for (const t of [token, t3]) {
      const x = new Client();
      x.token = t;
      expect((await x.get("/api/v1/accounts/verify_credentials")).status).toBe(401);
    }
    expect(
      (await new Client().get("/api/v1/accounts/verify_credentials", { authorization: "Bearer nonsense" })).status,
    ).toBe(401);
  });
});
