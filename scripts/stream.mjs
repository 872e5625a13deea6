// Watch a live stream of the local NoteX in one command (Node 22+, its built-in WebSocket):
//   npm run stream -- <username> <password> [user|public|public:local|hashtag <tag>]
//   npm run stream -- --token <access token> [stream] [tag]
// With a username it does what an app does: registers, consents as that person (their session),
// takes a read token. NOTEX_URL picks the server (default http://127.0.0.1:8787, `npm start`).
const base = (process.env.NOTEX_URL ?? "http://127.0.0.1:8787").replace(/\/$/, "");
const args = process.argv.slice(2);
const usage = "usage: npm run stream -- <username> <password> [stream] [tag]  |  --token <token> [stream] [tag]";
if (args.length < 2) {
  console.error(usage);
  process.exit(2);
}

async function call(path, body, headers = {}) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, ...headers },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${path}: ${res.status} ${json.message ?? json.error ?? ""}`);
  return {
    json,
    cookie: res.headers
      .getSetCookie?.()
      .map((c) => c.split(";")[0])
      .join("; "),
  };
}

async function tokenFor(username, password) {
  const redirect = "urn:ietf:wg:oauth:2.0:oob";
  const app = (await call("/api/v1/apps", { client_name: "stream.mjs", redirect_uris: redirect, scopes: "read" })).json;
  const { cookie } = await call("/v1/login", { username, password });
  const consent = { response_type: "code", client_id: app.client_id, redirect_uri: redirect, scope: "read" };
  const { code } = (await call("/v1/oauth/authorize", consent, { cookie })).json;
  const grant = { grant_type: "authorization_code", code, redirect_uri: redirect };
  const token = await call("/oauth/token", { ...grant, client_id: app.client_id, client_secret: app.client_secret });
  return token.json.access_token;
}

const byToken = args[0] === "--token";
const token = byToken ? args[1] : await tokenFor(args[0], args[1]);
const [stream = "user", tag] = args.slice(2);
const url = new URL("/api/v1/streaming", base.replace(/^http/, "ws"));
url.searchParams.set("stream", stream);
if (tag) url.searchParams.set("tag", tag);
const ws = new WebSocket(url, [token]);
ws.onopen = () => console.error(`watching ${stream}${tag ? ` #${tag}` : ""} on ${base} (Ctrl-C to stop)`);
ws.onmessage = (e) => {
  const frame = JSON.parse(String(e.data));
  if (frame.error) return console.error("error:", frame.error);
  const payload = frame.event === "delete" ? frame.payload : JSON.parse(frame.payload);
  const what =
    typeof payload === "string"
      ? payload
      : payload.type
        ? `${payload.type} from @${payload.account?.acct}`
        : `@${payload.account?.acct}: ${String(payload.content ?? "")
            .replace(/<[^>]+>/g, " ")
            .trim()
            .slice(0, 100)}`;
  console.log(`${new Date().toISOString().slice(11, 19)} [${frame.stream.join(" ")}] ${frame.event} ${what}`);
};
ws.onclose = (e) => {
  console.error(`closed (${e.code}${e.reason ? `: ${e.reason}` : ""})`);
  process.exit(e.code === 1000 ? 0 : 1);
};
