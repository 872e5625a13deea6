// What the production worker needs configured and what makes a value unusable (security issue 20,
// finding 7). One module for both sides: outside APP_ENV=local the worker refuses to serve while a
// rule fails (worker/app.ts), and `npm run deploy` (scripts/deploy.mjs) applies the same rules to
// wrangler.toml's production vars and to any secret value given in its environment before it
// deploys. Plain JS with JSDoc so Node runs it without a build step.

/** Our own HMAC keys: at least this many bytes of secret. */
export const MIN_SECRET_BYTES = 32;

/**
 * Every secret the production worker reads. `own` secrets are keys we generate (length rule);
 * the others are issued by Google or Cloudflare, so only presence and the example rule apply.
 * `when` limits a secret to configurations that use it.
 * @typedef {{ name: string, own: boolean, when?: (vars: Record<string, unknown>) => boolean }} Secret
 * @type {Secret[]}
 */
export const SECRETS = [
  { name: "TOKEN_SECRET", own: true },
  { name: "UPLOAD_SECRET", own: true },
  // Seals the accounts' ActivityPub private keys at rest (worker/features/federation/keys.ts).
  { name: "FEDERATION_SECRET", own: true },
  { name: "GOOGLE_CLIENT_ID", own: false },
  { name: "GOOGLE_CLIENT_SECRET", own: false },
  { name: "R2_S3_ENDPOINT", own: false, when: (vars) => vars.UPLOAD_MODE === "s3" },
  { name: "R2_ACCESS_KEY_ID", own: false, when: (vars) => vars.UPLOAD_MODE === "s3" },
  { name: "R2_SECRET_ACCESS_KEY", own: false, when: (vars) => vars.UPLOAD_MODE === "s3" },
];

/**
 * Values anyone can read in this repository (.dev.vars.example, vitest.config.ts, the e2e server):
 * fine on a laptop, a master key in production. tests/unit/secrets.test.ts keeps this in step.
 */
export const EXAMPLE_VALUES = new Set([
  "local-dev-token-secret-change-me-0123456789",
  "local-dev-upload-secret-change-me-0123456789",
  "local-dev-federation-secret-change-me-0123456789",
  "local-client",
  "local-secret",
  "test-token-secret-0123456789abcdef",
  "test-upload-secret-0123456789abcdef",
  "test-client",
  "test-secret",
  "notex-e2e",
  "notex-e2e-secret",
]);

/** wrangler.toml's placeholders (`REPLACE_WITH_…`) are never a real value. */
export const PLACEHOLDER = /REPLACE_WITH/;

/**
 * What is wrong with one secret's value, or null when it may be used.
 * @param {Secret} secret
 * @param {unknown} value
 * @returns {string | null}
 */
export function secretProblem(secret, value) {
  if (typeof value !== "string" || value.trim() === "") return `${secret.name} is not set`;
  if (EXAMPLE_VALUES.has(value)) return `${secret.name} is an example value from the repository`;
  if (PLACEHOLDER.test(value)) return `${secret.name} is a placeholder`;
  if (secret.own && new TextEncoder().encode(value).byteLength < MIN_SECRET_BYTES) {
    return `${secret.name} is shorter than ${MIN_SECRET_BYTES} bytes`;
  }
  return null;
}

/**
 * The plain vars production needs (set in wrangler.toml, not secret): links in mail are built from
 * APP_ORIGIN (never from the request's Host), and mail goes out from MAIL_FROM.
 * @type {{ name: string, problem: (value: string) => string | null }[]}
 */
export const VARS = [
  {
    name: "APP_ORIGIN",
    problem: (v) => {
      try {
        const u = new URL(v);
        return u.protocol === "https:" && u.origin === v.replace(/\/$/, "") ? null : "is not an https origin";
      } catch {
        return "is not an https origin";
      }
    },
  },
  { name: "MAIL_FROM", problem: (v) => (/@[^@\s>]+\.[^@\s>]+>?$/.test(v) ? null : "is not a mail address") },
];

/**
 * Problems with the plain vars of a non-local configuration.
 * @param {Record<string, unknown>} vars
 * @returns {string[]}
 */
export function varProblems(vars) {
  return VARS.map(({ name, problem }) => {
    const v = vars[name];
    if (typeof v !== "string" || v.trim() === "") return `${name} is not set`;
    if (PLACEHOLDER.test(v)) return `${name} is a placeholder`;
    const p = problem(v);
    return p && `${name} ${p}`;
  }).filter((p) => p !== null);
}

/**
 * The secrets this configuration (the worker's vars, e.g. UPLOAD_MODE) needs.
 * @param {Record<string, unknown>} vars
 * @returns {Secret[]}
 */
export const neededSecrets = (vars) => SECRETS.filter((s) => !s.when || s.when(vars));

/**
 * Every problem with a worker environment (vars and secrets); [] when it may serve. APP_ENV=local
 * (laptops, tests, e2e) has no requirements.
 * @param {Record<string, unknown>} env
 * @returns {string[]}
 */
export function configProblems(env) {
  if (env.APP_ENV === "local") return [];
  return [
    ...varProblems(env),
    ...neededSecrets(env)
      .map((s) => secretProblem(s, env[s.name]))
      .filter((p) => p !== null),
  ];
}
