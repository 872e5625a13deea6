// The outbound gate (worker/lib/outbound.ts) with a stubbed resolver and a stubbed network: every
// hop is judged by where its host resolves (public unicast only), its scheme and its port, and a
// redirect to a private address is refused before it is followed. Fedify's document loader in
// production goes through it (federation/loaders.ts), and so do WebFinger and the image proxy.
import { describe, expect, it } from "vitest";
import { guardedLoader } from "../../worker/features/federation/loaders";
import { guardedFetch, isPublicAddress, type Resolver } from "../../worker/lib/outbound";
import { proxiedImage } from "../../worker/features/federation/media";
import { env } from "cloudflare:test";
import { user } from "../factories";
import { storedMedia } from "../fediverse";
import { callWith } from "../http";
import { PRODUCTION_ENV } from "../prod-env";

const DNS: Record<string, string[]> = {
  "public.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "private.test": ["10.1.2.3"],
  "loopback.test": ["127.0.0.1"],
  "linklocal.test": ["169.254.169.254"],
  "cgnat.test": ["100.64.1.1"],
  "ula.test": ["fd00::1"],
  "mapped.test": ["::ffff:127.0.0.1"],
  "mixed.test": ["93.184.216.35", "192.168.1.1"],
  "nothing.test": [],
};
const resolve: Resolver = async (host) => DNS[host] ?? [];

/** The network: who was asked, and what each path answers. */
function network() {
  const sent: string[] = [];
  const send = async (request: Request) => {
    sent.push(request.url);
    const url = new URL(request.url);
    if (url.pathname === "/to-private")
      return new Response(null, { status: 302, headers: { location: "https://private.test/x" } });
    if (url.pathname === "/to-public") return new Response(null, { status: 301, headers: { location: "/doc" } });
    if (url.pathname === "/loop") return new Response(null, { status: 302, headers: { location: "/loop" } });
    if (url.pathname === "/doc")
      return new Response(
        JSON.stringify({ "@context": "https://www.w3.org/ns/activitystreams", id: url.href, type: "Note" }),
        {
          headers: { "content-type": "application/activity+json" },
        },
      );
    return new Response("ok");
  };
  return { sent, send };
}

describe("the outbound gate", () => {
  it("answers only public unicast addresses", () => {
    for (const a of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "1.1.1.1"])
      expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      "10.0.0.1",
      "172.16.0.1",
      "192.168.0.1",
      "127.0.0.1",
      "0.0.0.0",
      "169.254.169.254",
      "100.64.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd12:3456::1",
      "fc00::1",
      "::ffff:10.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::a00:1",
      "ff02::1",
      "not an address",
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });

  it("refuses a host that resolves to any private, loopback, link-local, CGNAT, ULA or mapped address, before sending", async () => {
    const { sent, send } = network();
    for (const host of [
      "private.test",
      "loopback.test",
      "linklocal.test",
      "cgnat.test",
      "ula.test",
      "mapped.test",
      "mixed.test",
      "nothing.test",
    ])
      await expect(guardedFetch(new Request(`https://${host}/x`), { resolve, send }), host).rejects.toThrow(/Refused/);
    for (const url of [
      "https://127.0.0.1/x",
      "https://[::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://0x7f.1/x",
      "https://10.0.0.1/x",
    ])
      await expect(guardedFetch(new Request(url), { resolve, send }), url).rejects.toThrow(/Refused/);
    expect(sent).toEqual([]);
  });

  it("https on port 443 (or 80 written out) only", async () => {
    const { sent, send } = network();
    for (const url of [
      "http://public.test/x",
      "https://public.test:8443/x",
      "https://public.test:6379/x",
      "ftp://public.test/x",
    ])
      await expect(guardedFetch(new Request(url), { resolve, send }), url).rejects.toThrow(/Refused/);
    expect(sent).toEqual([]);
    expect((await guardedFetch(new Request("https://public.test/x"), { resolve, send })).status).toBe(200);
    expect((await guardedFetch(new Request("https://public.test:443/x"), { resolve, send })).status).toBe(200);
    expect(sent).toHaveLength(2);
  });

  it("checks every redirect again: one to a private address is never followed, loops end", async () => {
    const { sent, send } = network();
    await expect(guardedFetch(new Request("https://public.test/to-private"), { resolve, send })).rejects.toThrow(
      /Refused/,
    );
    expect(sent).toEqual(["https://public.test/to-private"]);
    await expect(guardedFetch(new Request("https://public.test/loop"), { resolve, send })).rejects.toThrow(/redirects/);
    expect(sent.filter((u) => u.endsWith("/loop"))).toHaveLength(4);
    const ok = await guardedFetch(new Request("https://public.test/to-public"), { resolve, send });
    expect(await ok.text()).toContain('"type":"Note"');
  });

  it("Fedify's document loader goes through it, and names the document by its last hop", async () => {
    const { sent, send } = network();
    const load = guardedLoader({ software: "notex/test" }, { resolve, send });
    const doc = await load("https://public.test/to-public");
    expect(doc.documentUrl).toBe("https://public.test/doc");
    await expect(load("https://public.test/to-private")).rejects.toThrow(/Refused/);
    await expect(load("https://private.test/doc")).rejects.toThrow(/Refused/);
    // A preloaded context is never fetched.
    await load("https://www.w3.org/ns/activitystreams");
    expect(sent.some((u) => u.includes("private.test") || u.includes("w3.org"))).toBe(false);
  });

  it("outside APP_ENV=local the image proxy refuses other ports without fetching anything", async () => {
    const image = proxiedImage(PRODUCTION_ENV, "https://media.example:8443/pic.png");
    // Named by stored content (the proxy's first check), so the outbound gate is what refuses it.
    await storedMedia(env.DB, (await user()).id, [image]);
    const real = globalThis.fetch;
    const asked: string[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      asked.push(new Request(input).url);
      return new Response("no", { status: 500 });
    }) as typeof fetch;
    try {
      const res = await callWith(PRODUCTION_ENV, image);
      expect(res.status).toBe(404);
    } finally {
      globalThis.fetch = real;
    }
    expect(asked).toEqual([]);
  });
});
