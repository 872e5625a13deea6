// Issue 8 §1–2, generated from the API's own route list so a new route cannot be forgotten:
// hostile input from a visitor and from a signed-in stranger never answers 5xx, and every refused
// call leaves the database byte-for-byte unchanged.
import { expect, it } from "vitest";
import { api } from "../worker/api";
import { snapshot } from "./db-snapshot";
import type { Client } from "./http";

const METHODS = new Set(["GET", "POST", "PATCH", "PUT", "DELETE"]);
export const routes = [
  ...new Map(
    api.routes.filter((r) => METHODS.has(r.method) && !r.path.endsWith("*")).map((r) => [`${r.method} ${r.path}`, r]),
  ).values(),
];

/** Routes whose signature, not a session, is the authority (tested in their own suites). */
const SIGNED = (path: string) => path.startsWith("/v1/uploads/");

const PARAMS = [
  "0",
  "-1",
  "abc",
  "99999999999999999999",
  "%00'%20OR%201=1--",
  "..%2F..%2Fetc%F0%9F%98%80%E2%80%AE%E2%80%8B",
  // Issue 20 §3: a path decoded twice, or a broken escape, was a 500.
  "%",
  "%25",
  "100%25%20done",
  "%E0%A4%A",
];
const BODIES: unknown[] = [
  "{bad json",
  "[]",
  "null",
  '"text"',
  {},
  {
    id: "x",
    uid: [],
    content: { a: 1 },
    parent: "p",
    label: 5,
    name: null,
    username: 1,
    password: [],
    email: {},
    type: true,
    kind: "z",
    nid: -1,
    renote_id: "q",
    folders: "x",
    imgs: 3,
    t: 9,
  },
  { content: "x".repeat(300_000), label: "y".repeat(10_000), name: "\u0000\u202e😀".repeat(1000) },
  { id: -1, uid: 0, parent: 0, nid: 0, kind: 0, renote_id: 0, folders: [0, -1, 1e300] },
  { id: 1e308, uid: Number.MAX_SAFE_INTEGER, parent: -1e308, nid: 2 ** 63, kind: 6 },
  // Issue 20 §3 and §6: references past U+10FFFF (String.fromCodePoint threw), "%" in a label,
  // bidi overrides and zero-width characters in every text field.
  {
    content: "<p>&#99999999; &#x110000; &#xD800; &#0;</p>",
    label: "100% done",
    name: "\u202egnp.exe\u200b",
    descr: "\u2066x\u2069\ufeff",
    type: "Company\u200d",
    username: "logout",
    renote_id: 1,
    parent: -1,
    quote: true,
  },
];
const QUERIES = [
  "",
  "?page=-1",
  "?page=abc",
  "?page=1e99",
  "?t=evil&page=0",
  "?uid=abc&type=%00&sort=x&pid=--1&cursor=%%%",
  "?cursor=eyJ4Ijo1fQ",
];

const fill = (path: string, value: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, value);

export function hammer(who: () => Promise<Client>, label: string) {
  for (const r of routes) {
    if (SIGNED(r.path)) continue;
    it(`${label}: ${r.method} ${r.path}`, { timeout: 120_000 }, async () => {
      const c = await who();
      const calls: [string, unknown][] = [];
      const paramValues = r.path.includes(":") ? PARAMS : [""];
      for (const p of paramValues) {
        const path = fill(r.path, p);
        // Rotate the hostile queries and bodies rather than sending their full product.
        const i = calls.length;
        calls.push([
          `${path}${QUERIES[i % QUERIES.length]}`,
          r.method === "GET" || r.method === "DELETE" ? undefined : BODIES[i % BODIES.length],
        ]);
      }
      const first = fill(r.path, "1");
      for (const q of QUERIES) calls.push([`${first}${q}`, undefined]);
      if (r.method !== "GET" && r.method !== "DELETE") for (const b of BODIES) calls.push([first, b]);
      // One snapshot before and after the whole barrage: when every call was refused, the database
      // must be byte-for-byte what it was (per-call snapshots made the suite too slow to run).
      const before = r.method === "GET" ? "" : await snapshot();
      let refusedAll = true;
      for (const [path, body] of calls) {
        if (body === undefined && r.method !== "GET" && r.method !== "DELETE" && !path.includes("?")) continue;
        const res = await c.request(r.method, path, body);
        const shown = `${r.method} ${path} ${String(JSON.stringify(body)).slice(0, 80)} → ${JSON.stringify(res.body)?.slice(0, 200)}`;
        expect(res.status, shown).toBeLessThan(500);
        if (res.status < 400) refusedAll = false;
        else expect(typeof res.body?.message, `${shown}: a 4xx carries a message`).toBe("string");
      }
      if (r.method !== "GET" && refusedAll)
        expect(await snapshot(), `${r.method} ${r.path}: refused calls changed the database`).toBe(before);
    });
  }
}
