import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { unauthorized } from "../../lib/errors";
import { clientIp, rateLimit } from "../../lib/ratelimit";
import { endCurrentSession, me, refreshFromCookie, startSession } from "../../lib/session";
import { endAllSessions } from "../../lib/sessions";
import { later } from "../../lib/later";
import { z } from "zod";
import { type Answer, json, jsonBody, Ok, readBody, router, signedIn, typed, wording } from "../../lib/validate";
import { sendConfirmation, siteOrigin } from "../accounts/accounts.service";
import { loadUser, usernameTaken } from "../users/users.service";
import { ChangePassword, LoginInput, SignupInput, Username } from "../users/users.schema";
import { assertNotSuspended, changePassword, login, signup } from "./auth.service";
import { googleClaims, googleUser, startGoogle } from "./google.service";

const NameParam = z.object({ username: z.string().min(1).max(100) });
/** Spec 8's answer for a username someone holds (the same words sign-up answers with its 409). */
const SIGNUP_TAKEN = "Username already exists. Please choose another.";

/** Bursts on the account endpoints answer 429, per client address. */
const authLimit =
  (name: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await rateLimit(c.env.RL_AUTH, `${name}:${clientIp(c)}`);
    await next();
  };

/** What a sign-in answers: a bearer token and the person (a session cookie comes with it). */
const SignedIn = typed<{ token: string; user: Answer<typeof loadUser> }>("A bearer token and you");

const join = createRoute({
  method: "post",
  path: "/signup",
  summary: "Make an account (and sign in)",
  middleware: [authLimit("signup"), readBody],
  request: { body: jsonBody(SignupInput) },
  responses: { 201: SignedIn },
});
// Sign-up checks a username as it is typed: its rules first, then whether anyone holds it.
const nameCheck = createRoute({
  method: "get",
  path: "/signup/username/{username}",
  summary: "Whether a username can be had",
  request: { params: NameParam },
  responses: {
    200: json(z.object({ available: z.boolean(), message: z.string().nullable() }), "Free or not, and why"),
  },
});
// Missing fields on login answer the spec's 422 wording (its own hook), with the field messages kept.
const signIn = createRoute({
  method: "post",
  path: "/login",
  summary: "Sign in by username or email",
  middleware: [authLimit("login"), readBody],
  request: { body: jsonBody(LoginInput) },
  responses: { 200: SignedIn },
});
// Google: the button lands here; the provider comes back to /callback/google, whose page calls
// GET /login/google with the code and state.
const googleStart = createRoute({
  method: "get",
  path: "/login/google/start",
  summary: "Go to Google's sign-in",
  middleware: authLimit("google"),
  responses: { 302: { description: "To Google, with the state and PKCE challenge" } },
});
const google = createRoute({
  method: "get",
  path: "/login/google",
  summary: "Finish Google's sign-in with its code and state",
  middleware: authLimit("google"),
  request: { query: z.object({ code: z.string().optional(), state: z.string().optional() }) },
  responses: { 200: SignedIn },
});
// ?all=1 ends every session of the account (apps' too), not just this browser's.
const logout = createRoute({
  method: "get",
  path: "/logout",
  summary: "Sign out (all=1: everywhere)",
  parameters: [{ name: "all", in: "query", required: false, schema: { type: "string", enum: ["1"] } }],
  responses: { 200: json(Ok, "Signed out") },
});
const refresh = createRoute({
  method: "get",
  path: "/refresh",
  summary: "A new bearer token while the session cookie's session lasts",
  security: [{ session: [] }],
  responses: { 200: json(z.object({ token: z.string() }), "A new bearer token") },
});
const password = createRoute({
  method: "patch",
  path: "/users/password",
  summary: "Change your password (every session ends; this one gets a new one)",
  ...signedIn(readBody),
  request: { body: jsonBody(ChangePassword) },
  responses: { 200: SignedIn },
});

export const auth = router()
  .openapi(join, async (c) => {
    const row = await signup(c.var.db, c.req.valid("json"));
    const { token } = await startSession(c, row.id);
    await later(c, "confirmation mail", () =>
      sendConfirmation(c.env, c.var.db, row.id, row.email, siteOrigin(c.env, c.req.url)),
    );
    return c.json({ token, user: await loadUser(c.var.db, { id: row.id }, row.id) }, 201);
  })
  .openapi(nameCheck, async (c) => {
    const p = Username.safeParse(c.req.valid("param").username);
    if (!p.success) return c.json({ available: false, message: p.error.issues[0]?.message ?? null }, 200);
    const taken = await usernameTaken(c.var.db, p.data);
    return c.json({ available: !taken, message: taken ? SIGNUP_TAKEN : null }, 200);
  })
  .openapi(
    signIn,
    async (c) => {
      const { username, password } = c.req.valid("json");
      const row = await login(c.var.db, username, password, (key) => rateLimit(c.env.RL_AUTH, key));
      const { token } = await startSession(c, row.id, row.theme);
      return c.json({ token, user: await loadUser(c.var.db, { id: row.id }, row.id) }, 200);
    },
    wording("Invalid username or password."),
  )
  .openapi(googleStart, async (c) => c.redirect((await startGoogle(c)).href, 302))
  .openapi(google, async (c) => {
    const { code, state } = c.req.valid("query");
    const claims = await googleClaims(c, (code ?? "").slice(0, 2048), state ?? "");
    const row = await googleUser(c.var.db, claims);
    assertNotSuspended(row);
    const { token } = await startSession(c, row.id, row.theme);
    return c.json({ token, user: await loadUser(c.var.db, { id: row.id }, row.id) }, 200);
  })
  .openapi(logout, async (c) => {
    if (c.req.query("all") === "1" && c.var.user) await endAllSessions(c.env, c.var.user.id);
    await endCurrentSession(c);
    return c.json({ ok: true as const }, 200);
  })
  .openapi(refresh, async (c) => {
    const token = await refreshFromCookie(c);
    if (!token) throw unauthorized();
    return c.json({ token }, 200);
  })
  .openapi(password, async (c) => {
    const { password, new_password } = c.req.valid("json");
    const row = await changePassword(c.var.db, me(c).id, password, new_password);
    // Every session ends, this browser's too: it gets a new one (a thief who had its cookie does not).
    await endAllSessions(c.env, row.id);
    const { token } = await startSession(c, row.id);
    return c.json({ token, user: await loadUser(c.var.db, { id: row.id }, row.id) }, 200);
  });
