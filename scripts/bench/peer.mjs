// The bench's peer on another "server" (measure.mjs's inbox row): someone served by this process on
// its own port (the worker fetches their key once, in local mode over loopback), each request a new
// Create signed draft-cavage as Mastodon signs, its rate-limit identity taking turns (RL_FED allows
// a host 300 a minute).
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { createServer } from "node:http";

/** Starts the peer on `port`; answers the next-delivery maker for the worker at `base`, and close(). */
export async function startPeer(base, port) {
  const actorBase = `http://127.0.0.1:${port}`;
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const actorDoc = JSON.stringify({
    "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
    id: `${actorBase}/actor`,
    type: "Person",
    preferredUsername: "benchpeer",
    inbox: `${actorBase}/inbox`,
    publicKey: {
      id: `${actorBase}/actor#main-key`,
      owner: `${actorBase}/actor`,
      publicKeyPem: publicKey.export({ type: "spki", format: "pem" }),
    },
  });
  const server = createServer((req, res) => {
    res.writeHead(req.url === "/actor" ? 200 : 202, { "content-type": "application/activity+json" });
    res.end(req.url === "/actor" ? actorDoc : "");
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  let delivered = 0;
  function inboxDelivery() {
    const n = delivered++;
    const id = `${actorBase}/notes/${process.pid}-${n}`;
    const body = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${id}/activity`,
      type: "Create",
      actor: `${actorBase}/actor`,
      to: "https://www.w3.org/ns/activitystreams#Public",
      object: {
        id,
        type: "Note",
        attributedTo: `${actorBase}/actor`,
        content: `<p>Bench delivery ${n}</p>`,
        to: "https://www.w3.org/ns/activitystreams#Public",
      },
    });
    const host = new URL(base).host;
    const date = new Date().toUTCString();
    const digest = `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
    const signed = `(request-target): post /ap/inbox\nhost: ${host}\ndate: ${date}\ndigest: ${digest}`;
    const signature = sign("sha256", Buffer.from(signed), privateKey).toString("base64");
    return {
      method: "POST",
      path: "/ap/inbox",
      body,
      headers: {
        host,
        date,
        digest,
        "content-type": "application/activity+json",
        "x-test-client": `fed${n % 1000}`,
        signature: `keyId="${actorBase}/actor#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"`,
      },
    };
  }
  // The first delivery fetches and caches the key: before any capture or measurement.
  const r = inboxDelivery();
  const res = await fetch(`${base}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
  if (res.status >= 300) throw new Error(`inbox delivery: ${res.status} ${await res.text()}`);
  return { inboxDelivery, close: () => server.close() };
}
