// Mastodon apps in tests: masto.js (the library Elk and others build on) talking to the worker
// under test, and the OAuth dance an app does (register, consent with PKCE, token).
import { exports } from "cloudflare:workers";
import { createRestAPIClient, type mastodon } from "masto";
import { BASE, type Client, nextIp } from "./http";

let routed = false;
/** masto.js calls the global fetch: requests to the test origin go to the worker, in process. */
export function routeFetchToWorker() {
  if (routed) return;
  routed = true;
  const real = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    // Each call is its own client address, as many people's apps are (per-address budgets apply).
    if (!req.headers.has("cf-connecting-ip")) req.headers.set("cf-connecting-ip", nextIp());
    if (req.url.startsWith(BASE)) return (exports as any).default.fetch(req);
    return real(input, init);
  }) as typeof fetch;
}

export const masto = (accessToken?: string): mastodon.rest.Client => {
  routeFetchToWorker();
  return createRestAPIClient({ url: BASE, accessToken });
};

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

export async function pkce() {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

export const REDIRECT = "https://app.example/callback";

/** Registers an app through masto.js. */
export async function registerApp(scopes = "read write follow push", redirectUris = REDIRECT) {
  return masto().v1.apps.create({ clientName: "Test App", redirectUris, scopes, website: "https://app.example" });
}

/** The consent a signed-in person gives (their cookie), answering the one-time code. */
export async function consent(
  person: Client,
  params: Record<string, string>,
): Promise<{ status: number; code: string | null; redirect: string | null; body: any }> {
  const saved = person.token;
  person.token = null; // the consent page is a cookie page
  const res = await person.post("/v1/oauth/authorize", { response_type: "code", ...params });
  person.token = saved;
  return { status: res.status, code: res.body?.code ?? null, redirect: res.body?.redirect ?? null, body: res.body };
}

/**
 * The whole dance: an app (a new one, or `app` for a further token of the same app), consent with
 * PKCE, the token. Answers the token, a masto.js client for it, and the token answer's status.
 */
export async function appToken(
  person: Client,
  scope = "read write follow",
  app: Awaited<ReturnType<typeof registerApp>> | null = null,
) {
  app ??= await registerApp();
  const { verifier, challenge } = await pkce();
  const { code } = await consent(person, {
    client_id: app.clientId!,
    redirect_uri: REDIRECT,
    scope,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  const res = await (exports as any).default.fetch(
    new Request(`${BASE}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": nextIp() },
      body: JSON.stringify({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: app.clientId,
        client_secret: app.clientSecret,
        code_verifier: verifier,
      }),
    }),
  );
  const token = (await res.json()) as { access_token: string };
  return { app, token: token.access_token, client: masto(token.access_token), status: res.status as number };
}
