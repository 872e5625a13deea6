// The worker as Playwright sees it: the built app through wrangler's dev environment with file
// watching, live reload and the inspector off (scripts/worker-process.mjs, the bench's path), on a
// fresh local D1 of its own per port, signing in with "Google" against a real local OpenID provider
// (scripts/oidc-provider.mjs).
//
// In front of it, a plain Node proxy on E2E_PORT that talks to the user worker's own loopback
// address, not through wrangler's ProxyWorker: that proxy parks requests while it swaps workers and
// answers a POST caught in a swap with 503 "Your worker restarted mid-request", a flake no test
// could prevent. Without it in the path nothing can restart the worker under a test; if wrangler
// ever reloads it anyway, worker-process.mjs prints the event and its time on stderr.
//
// The front also never times out idle connections: workerd closes an idle keep-alive connection
// after 5 s, and Playwright's API client (page.request) reuses pooled sockets without an idle limit,
// so on a loaded machine a request could be written onto a socket whose close had not been read yet
// (ECONNRESET, "socket hang up"). Upstream, each request gets a fresh loopback connection, so no
// reuse race exists on either hop.
import { spawn } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import http from "node:http";
import "./dev-vars.mjs";
import { freshLocalD1 } from "./local-worker.mjs";
import { passwordHash } from "./password-hash.mjs";

const port = Number(process.env.E2E_PORT ?? 8788);
const workerPort = port + 1000;
const oidcPort = port + 700;
const issuer = `http://127.0.0.1:${oidcPort}`;
const persist = `.wrangler/e2e-${port}`;
// Wrangler reloads the worker when wrangler.toml or the assets directory changes, even with
// watching off, and a reload answers any POST in flight with 503 "Your worker restarted
// mid-request". A test run must not depend on nobody touching the checkout: config watching is
// off and the worker serves a private copy of the built assets.
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true" };
const assets = `${persist}-assets`;
rmSync(assets, { recursive: true, force: true });
cpSync("build/client", assets, { recursive: true });

// With the moderator the safety tests sign in as (tests/e2e/fixtures.ts E2E_MODERATOR), written before
// the worker opens the database: a second process writing the SQLite file under a running worker
// (`npm run role` mid-test) made the worker's own query fail with SQLITE_BUSY.
freshLocalD1(
  persist,
  env,
  `insert into users (username, email, fullname, password_hash, confirmed, role) values ('e2e_moderator', 'e2e_moderator@example.com', 'Mo Derator', '${passwordHash("secret123")}', 1, 'moderator');`,
);
const oidc = spawn(process.execPath, ["scripts/oidc-provider.mjs"], {
  env: {
    ...env,
    OIDC_PORT: String(oidcPort),
    OIDC_APP_ORIGINS: `http://127.0.0.1:${port}`,
    OIDC_CLIENT_ID: "notex-e2e",
    OIDC_CLIENT_SECRET: "notex-e2e-secret",
  },
  stdio: "ignore",
});
const vars = {
  TRUST_TEST_CLIENT_HEADER: "1",
  GOOGLE_AUTH_URL: `${issuer}/auth`,
  GOOGLE_TOKEN_URL: `${issuer}/token`,
  GOOGLE_ISSUER: issuer,
  GOOGLE_JWKS_URL: `${issuer}/jwks`,
  GOOGLE_CLIENT_ID: "notex-e2e",
  GOOGLE_CLIENT_SECRET: "notex-e2e-secret",
};
// Same process group as this script: Playwright's kill of the group ends the worker and workerd too.
const worker = spawn(
  process.execPath,
  ["scripts/worker-process.mjs", JSON.stringify({ port: workerPort, persist, vars, assets })],
  {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const stop = () => {
  oidc.kill("SIGTERM");
  worker.kill("SIGTERM");
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
worker.on("exit", (code) => {
  oidc.kill("SIGTERM");
  process.exit(code ?? 1);
});

// Readiness: worker-process prints `worker {url, headers}` once the user worker has loaded (and
// again should wrangler ever reload it); only then does E2E_PORT answer.
let target;
await new Promise((resolve) => {
  let buf = "";
  worker.stdout.on("data", (d) => {
    buf += d;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.startsWith("worker ")) {
        target = JSON.parse(line.slice(7));
        resolve();
      }
    }
  });
});

const HOP = new Set(["connection", "keep-alive", "proxy-connection", "upgrade"]);
const upstream = new http.Agent({ keepAlive: false });
const server = http.createServer((req, res) => {
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k)));
  // What wrangler's proxy would add: the URL the browser asked for, and the secret that lets
  // Miniflare's entry worker believe it.
  Object.assign(headers, target.headers, { "MF-Original-URL": `http://127.0.0.1:${port}${req.url}` });
  const { hostname, port: upPort } = new URL(target.url);
  const up = http.request(
    { host: hostname, port: upPort, method: req.method, path: req.url, headers, agent: upstream },
    (r) => {
      const raw = [];
      for (let i = 0; i < r.rawHeaders.length; i += 2) {
        if (!HOP.has(r.rawHeaders[i].toLowerCase())) raw.push(r.rawHeaders[i], r.rawHeaders[i + 1]);
      }
      // Every 5xx is named on stderr (Playwright prints it as [WebServer]): a failed run says
      // which request failed.
      if ((r.statusCode ?? 502) >= 500) process.stderr.write(`e2e proxy: ${r.statusCode} ${req.method} ${req.url}\n`);
      res.writeHead(r.statusCode ?? 502, r.statusMessage, raw);
      r.pipe(res);
    },
  );
  up.on("error", (e) => {
    // A browser that navigated away closed its side first (below): nothing failed.
    if (!res.destroyed) process.stderr.write(`e2e proxy: ${req.method} ${req.url} failed: ${e.message}\n`);
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(`e2e proxy: ${e.message}`);
  });
  res.on("close", () => up.destroy());
  req.pipe(up);
});
// WebSockets (the pages' live socket, Mastodon's streaming API): the upgrade is passed on as it
// came, then bytes flow both ways untouched.
server.on("upgrade", (req, socket, head) => {
  const headers = { ...req.headers, ...target.headers, "MF-Original-URL": `http://127.0.0.1:${port}${req.url}` };
  const { hostname, port: upPort } = new URL(target.url);
  const up = http.request({ host: hostname, port: upPort, method: req.method, path: req.url, headers, agent: false });
  up.on("upgrade", (r, upSocket, upHead) => {
    const lines = [`HTTP/1.1 ${r.statusCode} ${r.statusMessage}`];
    for (let i = 0; i < r.rawHeaders.length; i += 2) lines.push(`${r.rawHeaders[i]}: ${r.rawHeaders[i + 1]}`);
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (upHead.length) socket.write(upHead);
    if (head.length) upSocket.write(head);
    upSocket.on("error", () => socket.destroy());
    socket.on("error", () => upSocket.destroy());
    upSocket.pipe(socket);
    socket.pipe(upSocket);
  });
  // Refused (401, 403): the answer's status line, and the connection ends.
  up.on("response", (r) => {
    socket.end(`HTTP/1.1 ${r.statusCode} ${r.statusMessage}\r\nconnection: close\r\n\r\n`);
    r.resume();
  });
  up.on("error", () => socket.destroy());
  socket.on("error", () => up.destroy());
  up.end();
});
server.keepAliveTimeout = 0;
server.listen(port, "127.0.0.1", () => process.stdout.write(`ready on http://127.0.0.1:${port}\n`));
