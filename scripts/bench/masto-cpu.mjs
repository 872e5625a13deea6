// The Mastodon read path's CPU per request: the built worker on loopback with a small fresh D1
// (a reader following 8 people, 40 notes and reblogs among them), then N requests of each read one
// after another, and the workerd's CPU time from /proc (as measure.mjs reads it) divided by N.
// Usage: npm run build && node scripts/bench/masto-cpu.mjs [port=8871] [n=400]
// Numbers from a shared machine are for comparing two builds run back to back, not for a table.
import { freshLocalD1, startLocalWorker } from "../local-worker.mjs";
import { runtimeCpu } from "./timing.mjs";

const PORT = Number(process.argv[2] ?? 8871);
const N = Number(process.argv[3] ?? 400);
const BASE = `http://127.0.0.1:${PORT}`;
const persist = "/tmp/masto-cpu-d1";

const call = async (method, path, token, body) => {
  const headers = { "x-test-client": "masto-cpu", ...(token ? { authorization: `Bearer ${token}` } : {}) };
  if (body) headers["content-type"] = "application/json";
  const res = await fetch(`${BASE}${path}`, { method, headers, body: body && JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
};

freshLocalD1(persist);
const { child, stop } = await startLocalWorker({ port: PORT, persist, vars: { APP_ENV: "local" } });
try {
  const people = [];
  for (let i = 0; i < 9; i++) {
    const username = `cpu${i}x${Date.now() % 100000}`;
    const signup = { email: `${username}@example.com`, name: `Person ${i}`, username, password: "secret123" };
    const r = await call("POST", "/v1/signup", null, signup);
    people.push({ id: r.user.id, token: r.token });
  }
  const [reader, ...others] = people;
  const noteIds = [];
  for (const [i, p] of others.entries()) {
    await call("POST", `/v1/follows/${p.id}`, reader.token);
    for (let k = 0; k < 4; k++) {
      const content = `<p>note ${k} of ${i} #cpu with a few words to show</p>`;
      noteIds.push((await call("POST", "/v1/notes", p.token, { label: "idea", content })).note.id);
    }
  }
  for (const [i, p] of others.entries())
    await call("POST", "/v1/renotes", p.token, { renote_id: noteIds[(i * 5) % 32] });
  const oob = "urn:ietf:wg:oauth:2.0:oob";
  const app = await call("POST", "/api/v1/apps", null, { client_name: "CPU", redirect_uris: oob, scopes: "read" });
  const params = { client_id: app.client_id, redirect_uri: oob, scope: "read" };
  const { code } = await call("POST", "/v1/oauth/authorize", reader.token, { response_type: "code", ...params });
  const grant = { grant_type: "authorization_code", code, client_secret: app.client_secret, ...params };
  const token = (await call("POST", "/oauth/token", null, grant)).access_token;
  const cpu = runtimeCpu(child.pid);
  if (cpu() === null) throw new Error("no workerd child found");
  for (const path of ["/api/v1/timelines/home", "/api/v1/timelines/public", `/api/v1/statuses/${noteIds[3] * 2}`]) {
    for (let i = 0; i < 20; i++) await call("GET", path, token);
    const before = cpu();
    const t = performance.now();
    for (let i = 0; i < N; i++) await call("GET", path, token);
    const each = (cpu() - before) / N;
    console.log(`${path}: ${each.toFixed(2)} ms CPU, ${((performance.now() - t) / N).toFixed(2)} ms wall per request`);
  }
} finally {
  await stop();
}
