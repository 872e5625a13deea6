// Who the bench's requests come from (measure.mjs): signed-in bench users, a pool of writers (so
// each write spends its own person's RL_WRITE budget), Mastodon app tokens got as an app gets them,
// and the request makers the rows take turns with.
const OOB = "urn:ietf:wg:oauth:2.0:oob";
// Writers: RL_WRITE allows a person 60 writes per 10 s, so every write row spreads its requests
// over a pool of signed-in users (bench users 10.., none of them in the popular crowd).
const POOL = 120;

export const get =
  (path, headers = {}) =>
  () => ({ method: "GET", path, headers });
export const auth = (who) => ({ authorization: `Bearer ${who.token}` });

/** Sign-ins and request makers on the worker at `base`. */
export function people(base) {
  async function login(username) {
    const res = await fetch(`${base}/v1/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-client": username },
      body: JSON.stringify({ username, password: "bench1234" }),
    });
    if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
    const cookie = (res.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
    return { name: username, token: (await res.json()).token, cookie };
  }

  /** Follows cursors like an infinite scroll does, to reach a deep page's keyset. */
  async function cursorFor(path, page, headers = {}) {
    let cursor = null;
    for (let p = 1; p < page; p++) {
      const res = await fetch(`${base}${path}?page=${p}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
        headers,
      });
      if (!res.ok) return null;
      cursor = (await res.json()).cursor;
      if (!cursor) return null;
    }
    return cursor;
  }

  /** `names` signed in, eight at a time. */
  async function logins(names) {
    const out = [];
    for (let i = 0; i < names.length; i += 8) out.push(...(await Promise.all(names.slice(i, i + 8).map(login))));
    return out;
  }

  /** The writers' pool, each with a Mastodon app token too (one app, the consent route, the code exchange). */
  async function writers() {
    const pool = await logins(Array.from({ length: POOL }, (_, i) => `bench${10 + i}`));
    const mastoApp = await (
      await fetch(`${base}/api/v1/apps`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "Bench App", redirect_uris: OOB, scopes: "read write follow" }),
      })
    ).json();
    // Each person's consent and code exchange under their own rate-limit identity (RL_OAUTH is per client).
    async function mastoToken(who) {
      const client = { "content-type": "application/json", "x-test-client": who.name };
      const headers = { ...client, authorization: `Bearer ${who.token}` };
      const params = { client_id: mastoApp.client_id, redirect_uri: OOB, scope: "read write follow" };
      const consent = await fetch(`${base}/v1/oauth/authorize`, {
        method: "POST",
        headers,
        body: JSON.stringify({ response_type: "code", ...params }),
      });
      const { code } = await consent.json();
      const res = await fetch(`${base}/oauth/token`, {
        method: "POST",
        headers: client,
        body: JSON.stringify({
          grant_type: "authorization_code",
          code,
          client_secret: mastoApp.client_secret,
          ...params,
        }),
      });
      if (!res.ok) throw new Error(`mastodon token: ${res.status}`);
      return { authorization: `Bearer ${(await res.json()).access_token}` };
    }
    const mastoPool = [];
    for (let i = 0; i < pool.length; i += 8)
      mastoPool.push(...(await Promise.all(pool.slice(i, i + 8).map(mastoToken))));
    return { pool, mastoPool, mastoToken };
  }

  /**
   * A toggling write (like/unlike, follow/unfollow) by `pool`: requests are a POST and a DELETE in
   * turn, by writers who do not like (follow) the target and by writers who do, so every request
   * changes something and every row touches the same rows run after run. A writer's POST and their
   * DELETE are half the pool apart, never in flight together under load: sent the other way round
   * they would leave the writer liking, their next POST would change nothing, and a row's rows read
   * and written would drift from run to run (popular against fresh then compared different work).
   * The first half of the pool likes the target before the row starts, so the first DELETE undoes a like.
   */
  async function toggle(pool, path) {
    const half = pool.length / 2;
    const as = (u) => auth(pool[u % pool.length]);
    for (let u = 0; u < half; u++) {
      const res = await fetch(`${base}${path}`, { method: "POST", headers: as(u) });
      if (!res.ok) throw new Error(`toggle ${path}: ${res.status}`);
    }
    let n = 0;
    const next = () => {
      const i = n++;
      const k = Math.floor(i / 2);
      return i % 2 ? { method: "DELETE", path, headers: as(k) } : { method: "POST", path, headers: as(k + half) };
    };
    // The twin's capture (twins.mjs): one writer who does not like the target likes it, then takes
    // it back (the state the row starts from again), so the twin's replays alternate a real like and
    // a real unlike of one person. The row's own next POST and DELETE are by two different people:
    // replayed, each would change nothing after its first time.
    return Object.assign(next, {
      captures: () => [
        { method: "POST", path, headers: as(half) },
        { method: "DELETE", path, headers: as(half) },
      ],
    });
  }

  return { login, logins, cursorFor, writers, toggle };
}

/** A read by each of `pool` in turn (for a read with a per-person budget). */
export function rotating(pool, path) {
  let n = 0;
  return () => ({ method: "GET", path, headers: auth(pool[n++ % pool.length]) });
}

/** A Mastodon status posted by each of `mastoPool` in turn. */
export function posting(mastoPool) {
  let n = 0;
  return turn(mastoPool.length, () => {
    const i = n++;
    return {
      method: "POST",
      path: "/api/v1/statuses",
      headers: { ...mastoPool[i % mastoPool.length], "content-type": "application/json" },
      body: JSON.stringify({ status: `Posted from the bench app, ${i}` }),
    };
  });
}

/** A /v1 note posted by each of `authors` in turn. */
export function postingAs(authors) {
  let n = 0;
  return turn(authors.length, () => {
    const i = n++;
    return {
      method: "POST",
      path: "/v1/notes",
      headers: { ...auth(authors[i % authors.length]), "content-type": "application/json" },
      body: JSON.stringify({ label: "idea", content: `<p>bench post ${i}</p>` }),
    };
  });
}

/** A request maker whose requests repeat their kinds of work every `n` (its twin captures that many). */
const turn = (n, next) => Object.assign(next, { turn: n });
