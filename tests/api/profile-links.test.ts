// A profile to link from a CV: a headline, a place and links, each link verified as Mastodon
// verifies one (the page it names links back with rel="me"), shown on the person's record, on
// their ActivityPub actor (PropertyValue attachments) and on their Mastodon account's fields.
import { afterEach, describe, expect, it, vi } from "vitest";
import { user, visitor } from "../factories";
import { BASE } from "../http";
import { appToken } from "../mastodon";

/** Serves `pages` (URL → HTML) to the worker's outbound fetches; anything else fails loudly. */
function web(pages: Record<string, string>) {
  const real = globalThis.fetch;
  const asked: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input, init);
    if (!(req.url in pages)) return real(input, init);
    asked.push(req.url);
    return new Response(pages[req.url], { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  return asked;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("profile headline, location and links", () => {
  // The first actor fetch mints the person's keys (slow on a shared machine).
  it("stores them, verifies a link whose page links back with rel=me, and leaves the others unverified", {
    timeout: 120_000,
  }, async () => {
    const a = await user({ name: "Ada Links" });
    const profile = `${BASE}/${a.username}`;
    const asked = web({
      "https://ada.example/": `<html><head><link rel="me" href="${profile}"></head><body>Ada</body></html>`,
      "https://elsewhere.example/ada": `<html><body><a href="${profile}">no rel</a><a rel="me" href="${BASE}/someone_else">me?</a></body></html>`,
    });
    const res = await a.patch("/v1/users", {
      name: "Ada Links",
      descr: "Programs",
      headline: "  Analyst of engines  ",
      location: "London",
      links: [{ name: "Website", url: "https://ada.example/" }, { url: "https://elsewhere.example/ada" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(asked.sort()).toEqual(["https://ada.example/", "https://elsewhere.example/ada"]);
    const seen = (await visitor().get(`/v1/users/${a.username}`)).body;
    expect(seen.headline).toBe("Analyst of engines");
    expect(seen.location).toBe("London");
    expect(seen.links).toEqual([
      { name: "Website", value: "https://ada.example/", verified_at: expect.stringMatching(/^\d{4}-/) },
      { name: "", value: "https://elsewhere.example/ada", verified_at: null },
    ]);

    // Saving again keeps a verified link verified without fetching it; a changed link starts over.
    asked.length = 0;
    await a.patch("/v1/users", {
      name: "Ada Links",
      links: [{ name: "Website", url: "https://ada.example/" }, { url: "https://elsewhere.example/ada" }],
    });
    expect(asked).toEqual(["https://elsewhere.example/ada"]);
    const again = (await visitor().get(`/v1/users/${a.username}`)).body;
    expect(again.links[0].verified_at).toBe(seen.links[0].verified_at);
    // Left out, headline and location stay.
    expect(again.headline).toBe("Analyst of engines");

    // The actor carries each link as a PropertyValue (a rel=me link, as Mastodon writes fields).
    const actor = await visitor().get(`/ap/users/${a.id}`, { accept: "application/activity+json" });
    expect(actor.status).toBe(200);
    const attachment = actor.body.attachment as { type: string; name: string; value: string }[];
    expect(attachment.map((f) => f.name)).toEqual(["Website", "elsewhere.example", "CV", "Location"]);
    expect(attachment[0]).toMatchObject({ type: "PropertyValue" });
    expect(attachment[0].value).toContain('href="https://ada.example/" rel="me');
    expect(attachment[3].value).toBe("London");

    // A Mastodon app sees the same fields, the verified one with its verified_at (its client
    // reaches the worker through fetch: the pages above are no longer served).
    vi.restoreAllMocks();
    const { client } = await appToken(a);
    const account = await client.v1.accounts.verifyCredentials();
    expect(account.fields.map((f) => [f.name, !!f.verifiedAt])).toEqual([
      ["Website", true],
      ["elsewhere.example", false],
      ["CV", false],
      ["Location", false],
    ]);
  });

  it("refuses a link that is not a web address, and too many links, changing nothing", async () => {
    const a = await user();
    for (const [links, message] of [
      [[{ url: "javascript:alert(1)" }], "Link must start with https://"],
      [[{ url: "not a url" }], "Link must start with https://"],
      [Array.from({ length: 5 }, (_, i) => ({ url: `https://x${i}.example/` })), "At most 4 links"],
    ] as const) {
      const res = await a.patch("/v1/users", { name: "Ada", links });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toContain(message);
    }
    const long = await a.patch("/v1/users", { name: "Ada", headline: "x".repeat(100) });
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body)).toContain("Headline must be less than 100");
    expect((await a.get("/v1/me")).body.links).toEqual([]);
  });
});
