// A local account's farewell to the fediverse. Its rows (and, by cascade, its signing keys) go at
// once when it is deleted, but the servers that know it must still be told, with a Delete(Person)
// signed by its own key, from the queue, with retries. So before anything is deleted, its keys
// (still sealed) and the inboxes that know it are kept in fed_kv for FAREWELL_DAYS: far longer
// than the deliveries' retries last (consumer.ts), and the cleanup cron removes them afterwards.
// Meanwhile the account's actor answers 410 Gone (deleted_accounts), as Mastodon's does.

/** Longer than every retry of a delivery (8 tries, at most an hour apart) and a queue backlog. */
const FAREWELL_DAYS = 3;

export interface KnownInbox {
  inbox: string;
  uri: string;
  shared: number;
}

interface Farewell {
  keys: { rsa_public: string; rsa_private: string; ed_public: string; ed_private: string };
  to: KnownInbox[];
}

const keyOf = (uid: number) => JSON.stringify(["notex", "farewell", uid]);

/** The servers that know the account: those of its followers and of the people it follows, one inbox each. */
const KNOWN_BY = `select coalesce(ra.shared_inbox, ra.inbox) as inbox, min(ra.uri) as uri, max(ra.shared_inbox is not null) as shared
  from remote_actors ra
  where ra.user_id in (select follower_id from follows where followee_id = ?1 union select followee_id from follows where follower_id = ?1)
  group by coalesce(ra.shared_inbox, ra.inbox)`;

export const knownBy = (db: D1Database, uid: number) =>
  db
    .prepare(KNOWN_BY)
    .bind(uid)
    .all<KnownInbox>()
    .then((r) => r.results);

/**
 * Keeps the account's keys and the inboxes that know it, before its rows go. Only for an account
 * that has keys (one no server ever read or heard from has none, and nobody to tell); a retried
 * deletion keeps the first list (by then the follows may be gone).
 */
export const keepFarewell = (db: D1Database, uid: number) =>
  db
    .prepare(
      `insert into fed_kv (key, value, expires_at)
       select ?2, json_object(
         'keys', json_object('rsa_public', k.rsa_public, 'rsa_private', k.rsa_private, 'ed_public', k.ed_public, 'ed_private', k.ed_private),
         'to', (select json_group_array(json_object('inbox', inbox, 'uri', uri, 'shared', shared)) from (${KNOWN_BY}))
       ), ?3
       from actor_keys k where k.user_id = ?1
       on conflict(key) do nothing`,
    )
    .bind(uid, keyOf(uid), Date.now() + FAREWELL_DAYS * 86_400_000)
    .run();

/** What was kept for a deleted account, while it is kept. */
export async function farewellOf(db: D1Database, uid: number): Promise<Farewell | null> {
  const row = await db
    .prepare("select value from fed_kv where key = ? and expires_at > ?")
    .bind(keyOf(uid), Date.now())
    .first<{ value: string }>();
  return row ? (JSON.parse(row.value) as Farewell) : null;
}
