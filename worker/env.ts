import type { DrizzleD1Database } from "drizzle-orm/d1";
import type * as schema from "./db/schema/all";
import type { AppGrant } from "./lib/sessions";

export interface Env {
  DB: D1Database;
  /** Sign-in sessions (worker/lib/sessions.ts). */
  SESSIONS: KVNamespace;
  IMAGES: R2Bucket;
  ASSETS?: Fetcher;
  RL_AUTH?: RateLimit;
  RL_WRITE?: RateLimit;
  RL_SEARCH?: RateLimit;
  RL_SEARCH_VISITOR?: RateLimit;
  /** Mastodon app registrations per client address (mastodon/oauth.routes.ts). */
  RL_APPS?: RateLimit;
  /** /oauth/token and /oauth/revoke per client address. */
  RL_OAUTH?: RateLimit;
  /** Cloudflare's send_email binding (worker/lib/mail.ts); absent = nothing is delivered. */
  EMAIL?: SendEmail;
  /** ActivityPub deliveries (worker/features/federation): producer and consumer of one queue. */
  FED_QUEUE?: Queue<unknown>;
  /** Where a delivery goes after its last try (the consumer sends it; nothing reads it but people). */
  FED_DLQ?: Queue<unknown>;
  /** Import jobs' chunks (worker/features/imports/jobs.ts): producer and consumer of one queue. */
  IMPORT_QUEUE?: Queue<unknown>;
  /** The live sockets' hubs (worker/features/live/hub.ts): Mastodon streaming and the pages'. */
  LIVE?: DurableObjectNamespace<import("./features/live/hub").LiveHub>;
  /** Inbound ActivityPub deliveries per verified sending server. */
  RL_FED?: RateLimit;
  /** Inbox deliveries whose signature could not be verified, per client address. */
  RL_FED_UNVERIFIED?: RateLimit;
  /** Seals the accounts' private signing keys at rest (worker/features/federation/keys.ts). */
  FEDERATION_SECRET?: string;
  /** The From address of every message NoteX sends. */
  MAIL_FROM?: string;
  /** The site's origin for links in mail (e.g. https://notex.example); else the request's own. */
  APP_ORIGIN?: string;
  APP_ENV: string;
  UPLOAD_MODE: string;
  TOKEN_SECRET: string;
  UPLOAD_SECRET: string;
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  GOOGLE_AUTH_URL: string;
  GOOGLE_TOKEN_URL: string;
  GOOGLE_ISSUER: string;
  GOOGLE_JWKS_URL: string;
  /** Bytes an archive may weigh when sent through the form (default 100 MB, a request's limit); bigger ones go by a signed PUT. */
  ARCHIVE_BODY_MAX?: string;
  R2_S3_ENDPOINT?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
  IMAGE_ORIGIN?: string;
  /**
   * "true": NoteX's own ActivityPub documents (actors, notes, collections) answer only signed GETs,
   * and none to a blocked server ("authorized fetch", as Mastodon's secure mode); WebFinger,
   * NodeInfo and the instance actor stay open.
   */
  AUTHORIZED_FETCH?: string;
  /** "1" logs one JSON line per request even under APP_ENV=local (always on elsewhere). */
  REQUEST_LOG?: string;
  /** Set only by the e2e server script: lets x-test-client key rate limits per test. */
  TRUST_TEST_CLIENT_HEADER?: string;
  /** Set only by `npm run bench` (APP_ENV=local): captures requests' D1 trips and serves their bare twins (bench/twins.ts, wired by bench/entry.ts only). */
  BENCH_TWINS?: string;
}

export type DB = DrizzleD1Database<typeof schema>;

export interface CurrentUser {
  id: number;
  /** The session's id (lib/sessions.ts). */
  sid: string;
  /** When the session signed in (ms): a web session's; what asks for a fresh sign-in reads it. */
  signedInAt?: number;
  /** Set when the session is an app's access token (Mastodon API only): what the app was granted. */
  app?: AppGrant;
}

export interface AppEnv {
  Bindings: Env;
  Variables: { db: DB; user: CurrentUser | null };
}
