// The person's own account through a Mastodon app: update_credentials with an avatar and a header
// sent as multipart (stored in R2 like the web's uploads, under the spec's image rules).
import { describe, expect, it } from "vitest";
import { user } from "../factories";
import { BASE, Client } from "../http";
import { PNG } from "../images";
import { appToken } from "../mastodon";

async function person() {
  const p = await user();
  const { client, token } = await appToken(p, "read write follow");
  return { p, m: client, token };
}

/** A multipart PATCH of update_credentials with the app's token. */
async function patchForm(token: string, form: FormData) {
  const c = new Client();
  const { exports } = await import("cloudflare:workers");
  const res = await (exports as any).default.fetch(
    new Request(`${BASE}/api/v1/accounts/update_credentials`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "cf-connecting-ip": c.ip },
      body: form,
    }),
  );
  return { status: res.status as number, body: (await res.json()) as any };
}

describe("Mastodon update_credentials", () => {
  it("takes an avatar and a header as multipart, stores them, and shows them on the account and the web", async () => {
    const a = await person();
    const updated = await a.m.v1.accounts.updateCredentials({
      displayName: "Pictured Person",
      note: "Writes notes",
      avatar: new Blob([PNG], { type: "image/png" }),
      header: new Blob([PNG], { type: "image/webp" }),
    });
    expect(updated.displayName).toBe("Pictured Person");
    expect(updated.avatar).toMatch(new RegExp(`/img/u/${a.p.id}/avatar/[0-9a-f]{24}\\.png$`));
    // The header's part said WebP; its bytes are a PNG, and that is what is kept.
    expect(updated.header).toMatch(new RegExp(`/img/u/${a.p.id}/cover/[0-9a-f]{24}\\.png$`));
    const img = await new Client().get(new URL(updated.avatar).pathname);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    const web = (await a.p.get("/v1/me")).body;
    expect(new URL(updated.avatar).pathname).toBe(web.avatar);
    expect(new URL(updated.header).pathname).toBe(web.cover);
    expect((await a.m.v1.accounts.verifyCredentials()).avatar).toBe(updated.avatar);
    // Only the name: the pictures stay.
    const renamed = await a.m.v1.accounts.updateCredentials({ displayName: "Renamed" });
    expect(renamed.avatar).toBe(updated.avatar);
  });

  it("refuses what is not an allowed image, or too large, and changes nothing", async () => {
    const a = await person();
    const before = (await a.p.get("/v1/me")).body;
    const cases: [string, Blob | string][] = [
      ["avatar", new Blob(["plain text"], { type: "text/plain" })],
      ["header", new Blob([new Uint8Array(0)], { type: "image/png" })],
      ["avatar", new Blob([new Uint8Array(5 * 1024 * 1024 + 1)], { type: "image/jpeg" })],
      ["avatar", "not a file"],
    ];
    for (const [field, value] of cases) {
      const form = new FormData();
      form.set("display_name", "Changed");
      form.set(field, value);
      const res = await patchForm(a.token, form);
      expect(res.status, `${field} ${value instanceof Blob ? value.type : value}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof res.body.error).toBe("string");
    }
    // A good header with a bad avatar stores neither.
    const form = new FormData();
    form.set("header", new Blob([PNG], { type: "image/png" }));
    form.set("avatar", new Blob(["x"], { type: "application/pdf" }));
    expect((await patchForm(a.token, form)).status).toBe(422);
    const after = (await a.p.get("/v1/me")).body;
    expect([after.fullname, after.avatar, after.cover]).toEqual([before.fullname, before.avatar, before.cover]);
    // An empty part is "no new picture" (apps send one).
    const empty = new FormData();
    empty.set("display_name", "Still Me");
    empty.set("avatar", "");
    const ok = await patchForm(a.token, empty);
    expect(ok.status).toBe(200);
    expect(ok.body.display_name).toBe("Still Me");
    // A read token cannot change the account.
    const { client: reader } = await appToken(a.p, "read");
    await expect(reader.v1.accounts.updateCredentials({ displayName: "nope" })).rejects.toMatchObject({
      statusCode: 403,
    });
  });
});
