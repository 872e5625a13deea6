// Issue 20 §6: names, labels and folders cannot carry bidi overrides or invisible characters (they
// are stripped: see SECURITY.md), tags refuse them, and usernames cannot take a site route's name.
import { describe, expect, it } from "vitest";
import { RESERVED } from "../../worker/features/users/users.schema";
import { user, visitor } from "../factories";
import { Client } from "../http";

// U+202E (right-to-left override), U+2066–2069 (isolates), U+200B–200D, U+2060, U+FEFF.
const HIDDEN = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"].concat([
  "\u200b",
  "\u200c",
  "\u200d",
  "\u2060",
  "\ufeff",
]);
const sprinkle = (s: string) => HIDDEN.map((h, i) => (i < s.length ? s[i] : "") + h).join("") + s.slice(HIDDEN.length);
const clean = (s: string) => !/[\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff]/.test(s);

describe("invisible and bidi characters (issue 20 §6)", () => {
  it("are stripped from a sign-up name, a profile name and description", async () => {
    const a = await user({ name: "\u202eAda\u200b Lovelace\u2066" });
    const me = (await a.get("/v1/me")).body;
    expect(me.fullname).toBe("Ada Lovelace");
    const edited = await a.patch("/v1/users", { name: sprinkle("Grace Hopper"), descr: "exe.\u202egnp\u2069 bio" });
    expect(edited.status).toBe(200);
    const after = (await a.get("/v1/me")).body;
    expect(after.fullname).toBe("Grace Hopper");
    expect(clean(after.descr)).toBe(true);
  });

  it("a name of nothing but invisible characters is an empty name", async () => {
    const a = await user();
    const res = await a.patch("/v1/users", { name: "\u202e\u200b\ufeff", descr: "" });
    expect(res.status).toBe(422);
    expect(res.body.fields.name).toBe("Name is required");
  });

  it("are stripped from folder names, types and descriptions", async () => {
    const a = await user();
    const res = await a.post("/v1/folders", {
      type: "Comp\u200dany",
      name: sprinkle("Acme Corp"),
      descr: "\u202eevil",
      link: "",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "Company", name: "Acme Corp", descr: "evil" });
    // The stripped name is the same folder name: no look-alike twin.
    const twin = await a.post("/v1/folders", { type: "Company", name: "Acme\u200b Corp", descr: "", link: "" });
    expect(twin.status).toBe(409);
  });

  it("are stripped from x-labels, so a look-alike label is the same label", async () => {
    const a = await user();
    const res = await a.post("/v1/notes", { label: "\u202eide\u200ba", content: "<p>x</p>" });
    expect(res.status).toBe(201);
    expect((await a.get(`/v1/notes/${res.body.note.id}`)).body.label).toBe("idea");
  });

  it("make a tag invalid (tags are refused with the spec's message, never stored)", async () => {
    const a = await user();
    for (const h of HIDDEN.filter((x) => x !== "\ufeff")) {
      const res = await a.post("/v1/notes", { label: "idea", content: `<p>#ab${h}c</p>` });
      expect(res.status, JSON.stringify(h)).toBe(422);
      expect(res.body.fields.tags).toBe("Tag should contain only letter or number.");
    }
  });
});

describe("usernames that collide with the site's routes (issue 20 §6)", () => {
  it.each(["logout", "login", "settings", "search", "discover", "moderation", "reset", "confirm", "admin", "xlabel"])(
    "%s is taken",
    async (username) => {
      const res = await visitor().post("/v1/signup", {
        email: `${username}-${Date.now()}@example.com`,
        name: "Someone",
        username,
        password: "secret123",
      });
      expect(res.status).toBe(422);
      expect(res.body.fields.username).toBe("username is already taken");
      const a = await user();
      const change = await a.patch("/v1/users/username", { username: username.toUpperCase() });
      expect(change.status).toBe(422);
    },
  );

  it("every top-level page route of app/routes is reserved, so the list cannot drift", () => {
    const files = Object.keys(import.meta.glob("/app/routes/*.{ts,tsx}"));
    const segments = files
      .map((f) => f.replace(/^.*\/routes\//, "").replace(/\.tsx?$/, ""))
      .map((name) => name.split(/(?<!\[)\.(?!\])/)[0].replaceAll("[.]", "."))
      // A trailing "_" only opts a route out of its parent's layout (settings_.$list is /settings/…).
      .map((seg) => seg.replace(/_$/, ""))
      .filter((seg) => !seg.startsWith("$") && !seg.startsWith("_"));
    expect(segments.length).toBeGreaterThan(10);
    expect(segments.filter((seg) => !RESERVED.has(seg.toLowerCase()))).toEqual([]);
    // The worker's own top-level paths.
    for (const seg of ["v1", "img"]) expect(RESERVED.has(seg)).toBe(true);
  });
});

// C0 control characters (NUL, ESC, BEL…) and DEL are refused in every name, description, folder
// field and label; whitespace controls are whitespace: a one-line field folds them into a space, a
// description keeps its newlines.
const CONTROLS = ["\u0000", "\u0001", "\u0007", "\u0008", "\u001b", "\u001f", "\u007f"];

describe("control characters", () => {
  it.each(CONTROLS.map((ch) => [JSON.stringify(ch), ch]))(
    "%s is refused in names, descriptions, folders and labels, changing nothing",
    async (_shown, ch) => {
      const a = await user();
      const refusals = [
        await new Client().post("/v1/signup", {
          email: `c${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.com`,
          name: `${ch}evil`,
          username: `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
          password: "secret123",
        }),
        await a.patch("/v1/users", { name: `${ch}evil`, descr: "" }),
        await a.patch("/v1/users", { name: "Fine Name", descr: `bio${ch}` }),
        await a.post("/v1/folders", { type: `Com${ch}pany`, name: "Acme", descr: "", link: "" }),
        await a.post("/v1/folders", { type: "Company", name: `Ac${ch}me`, descr: "", link: "" }),
        await a.post("/v1/folders", { type: "Company", name: "Acme", descr: `about${ch}`, link: "" }),
        await a.post("/v1/notes", { label: `id${ch}ea`, content: "<p>hello</p>" }),
      ];
      for (const res of refusals) {
        expect(res.status, JSON.stringify(res.body)).toBe(422);
        expect(res.body.message).toMatch(/control characters|invalid characters/);
      }
      const me = (await a.get(`/v1/users/${a.username}`)).body;
      expect(me.fullname).toBe("Test User");
      expect((await a.get(`/v1/folders?uid=${a.id}&sort=time&page=1`)).body.folders ?? []).toEqual([]);
    },
  );

  it("whitespace controls are whitespace: one-line fields fold them, a description keeps its newlines", async () => {
    const a = await user();
    const res = await a.patch("/v1/users", { name: "Ada\tLove\nlace", descr: "line one\r\nline two\tend" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const me = (await a.get(`/v1/users/${a.username}`)).body;
    expect(me.fullname).toBe("Ada Love lace");
    expect(me.descr).toBe("line one\nline two end");
  });
});
