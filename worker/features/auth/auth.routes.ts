import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { unauthorized } from "../../lib/errors";
import { clientIp, rateLimit } from "../../lib/ratelimit";
import { endCurrentSession, me, refreshFromCookie, requireUser, startSession } from "../../lib/session";
import { endAllSessions } from "../../lib/sessions";
import { later } from "../../lib/later";
import { z } from "zod";
import { body, param } from "../../lib/validate";
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

export const auth = new Hono<AppEnv>()
  .post("/signup", authLimit("signup"), body(SignupInput), async (c) => {
    const row = await signup(c.var.db, c.req.valid("json"));
    const { token } = await startSession(c, row.id);
    await later(c, "confirmation mail", () =>
      sendConfirmation(c.env, c.var.db, row.id, row.email, siteOrigin(c.env, c.req.url)),
    );
    return c.json({ token, user: await loadUser(c.var.db, { id: row.id }, row.id) }, 201);
  })
  // Sign-up checks a username as it is typed: its rules first, then whether anyone holds it.
  .get("/signup/username/:username", param(NameParam), async (c) => {
    const p = Username.safeParse(c.req.valid("param").username);
    if (!p.success) return c.json({ available: false, message: p.error.issues[0]?.message ?? null });
    const taken = await usernameTaken(c.var.db, p.data);
    return c.json({ available: !taken, message: taken ? SIGNUP_TAKEN : null });
  })
  // Missing fields on login answer the spec's 422 wording, with the field messages kept.
  .post("/login", authLimit("login"), body(LoginInput, "Invalid username or password."), async (c) => {
    const { username, password } = c.req.valid("json");
    const row = await login(c.var.db, username, password, (key) => rateLimit(c.env.RL_AUTH, key));
    const { token } = await startSession(c, row.id);
    return c.json({ token, user: await loadUser(c.var.db, { id: row.id }, row.id) });
  })
  // Google: the button lands here; the provider comes back to /callback/google, whose page calls
  // GET /login/google with the code and state.
  .get("/login/google/start", authLimit("google"), async (c) => c.redirect((await startGoogle(c)).href, 302))
  .get("/login/google", authLimit("google"), async (c) => {
    const claims = await googleClaims(c, (c.req.query("code") ?? "").slice(0, 2048), c.req.query("state") ?? "");
    const row = await googleUser(c.var.db, claims);
    assertNotSuspended(row);
    const { token } = await startSession(c, row.id);
    return c.json({ token, user: await loadUser(c.var.db, { id: row.id }, row.id) });
  })
  .get("/logout", async (c) => {
    // ?all=1 ends every session of the account (apps' too), not just this browser's.
    if (c.req.query("all") === "1" && c.var.user) await endAllSessions(c.env.SESSIONS, c.var.user.id);
    await endCurrentSession(c);
    return c.json({ ok: true });
  })
  .get("/refresh", async (c) => {
    const token = await refreshFromCookie(c);
    if (!token) throw unauthorized();
    return c.json({ token });
  })
  .patch("/users/password", requireUser, body(ChangePassword), async (c) => {
    const { password, new_password } = c.req.valid("json");
    const row = await changePassword(c.var.db, me(c).id, password, new_password);
    // Every session ends, this browser's too: it gets a new one (a thief who had its cookie does not).
    await endAllSessions(c.env.SESSIONS, row.id);
    const { token } = await startSession(c, row.id);
    return c.json({ token, user: await loadUser(c.var.db, { id: row.id }, row.id) });
  });
