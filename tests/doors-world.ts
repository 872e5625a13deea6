// The world the one-path tests drive each action through every door in (tests/api/one-path*.test.ts):
// two instances (A, where the actions happen, and B, a server that delivers to A's inbox); `me`, who
// acts through each door, with an app's token for the Mastodon one; `ada`, someone here with a note;
// `far`, who stands for someone on another server (a remote_actors row) with a note stored from
// there; `bea`, someone on B.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { appToken, caller, instance, migrate, noteBy, type Person, person, routeFetch, standInFar } from "./fediverse";

export interface Doors {
  me: Person;
  ada: Person;
  far: Person;
  bea: Person;
  token: string;
  adaNote: number;
  farNote: number;
}

/** The world on `host` (and `host`'s B); its people's names start with `prefix`. */
export function doorsWorld(host: string, prefix: string) {
  const A = instance(`${host}.test`, env.DB);
  const B = instance(`${host}-b.test`, env.DB_B);
  let unroute = () => {};
  let token = "";
  return {
    A,
    B,
    /** A call to A's Mastodon API with `me`'s app token. */
    api: (method: string, path: string, body?: unknown) => caller(A)(method, path, body, token),
    /** A count read on A's database (the query names it n). */
    n: async (q: string, ...args: unknown[]) =>
      (await A.env.DB.prepare(q)
        .bind(...args)
        .first<{ n: number }>())!.n,
    /** What one door's call set off: its answer's status, the messages queued, and `rows` read after. */
    async through<R>(call: () => Promise<{ status: number; body: unknown }>, rows: () => Promise<R>) {
      A.queue.items.splice(0);
      const res = await call();
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return { queued: A.queue.items.splice(0), rows: await rows() };
    },
    async open(): Promise<Doors> {
      await import("../worker/features/federation/federation");
      await migrate(env.DB_B);
      unroute = routeFetch([A, B]);
      const [me, ada, far, bea] = [
        await person(A, `${prefix}mee`),
        await person(A, `${prefix}adaa`),
        await person(A, `${prefix}farr`),
        await person(B, `${prefix}beaa`),
      ];
      token = await appToken(A, me);
      const adaNote = await noteBy(ada, "here");
      const farNote = await noteBy(far, "from elsewhere");
      await standInFar(env.DB, far.id, farNote);
      A.queue.items.splice(0);
      return { me, ada, far, bea, token, adaNote, farNote };
    },
    close: () => unroute(),
  };
}
