import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { me } from "../../lib/session";
import { ThemeForm } from "../../lib/theme";
import { type Answer, json, jsonBody, readBody, router, signedIn, typed } from "../../lib/validate";
import { createUploads, type UploadSlot } from "../uploads/uploads.links";
import { ChangeEmail, ChangeUsername, ProfileEdit } from "./users.schema";
import { changeUsername, loadUser, saveTheme } from "./users.service";
import { changeEmail, siteOrigin } from "../accounts/accounts.service";
import { actionOf, tellServers } from "../federation/federate";
import { findRemote } from "../federation/find";
import { editProfile } from "./profile.action";
import { isRemoteQuery } from "../federation/handles";
import { notFound } from "../../lib/errors";

// A name here, `name@host` on another server, or a profile URL there (search resolves those).
const UsernameParam = z.object({ username: z.string().min(1).max(500) });

type User = Answer<typeof loadUser>;

const self = createRoute({
  method: "get",
  path: "/me",
  summary: "The signed-in person",
  ...signedIn(),
  responses: { 200: typed<User>("You") },
});
const person = createRoute({
  method: "get",
  path: "/users/{username}",
  summary: "A person, by name here or name@host / profile URL elsewhere",
  request: { params: UsernameParam },
  responses: { 200: typed<User>("The person") },
});
const rename = createRoute({
  method: "patch",
  path: "/users/username",
  summary: "Change your username",
  ...signedIn(readBody),
  request: { body: jsonBody(ChangeUsername) },
  responses: { 200: typed<User>("You, renamed") },
});
// The colour theme follows the account: saved here, it is the cookie each new sign-in starts with.
const theme = createRoute({
  method: "patch",
  path: "/users/theme",
  summary: "Keep your colour theme (system, light or dark) on your account, for every device you sign in on",
  ...signedIn(readBody),
  request: { body: jsonBody(ThemeForm) },
  responses: { 200: json(ThemeForm, "The theme kept") },
});
const email = createRoute({
  method: "patch",
  path: "/users/email",
  summary: "Change your email with your current password (a confirmation goes to the new one)",
  ...signedIn(readBody),
  request: { body: jsonBody(ChangeEmail) },
  responses: { 200: typed<User>("You") },
});

export const users = router()
  .openapi(self, async (c) => {
    const uid = me(c).id;
    return c.json(await loadUser(c.var.db, { id: uid }, uid), 200);
  })
  .openapi(person, async (c) => {
    const { username: raw } = c.req.valid("param");
    const viewer = c.var.user?.id ?? null;
    // name@host or a profile URL is a person on another server (worker/features/federation): found there first.
    if (isRemoteQuery(raw)) {
      const id = await findRemote(c, raw);
      if (id === null) throw notFound("User not found");
      return c.json(await loadUser(c.var.db, { id }, viewer), 200);
    }
    return c.json(await loadUser(c.var.db, { username: raw.replace(/^@/, "") }, viewer), 200);
  })
  .openapi(rename, async (c) => {
    const renamed = await changeUsername(c.var.db, me(c).id, c.req.valid("json").username);
    // Other servers show the new name (Update(Person)); the actor's URI stays.
    await tellServers(actionOf(c), { notex: "account", op: "update", uid: me(c).id });
    return c.json(renamed, 200);
  })
  .openapi(theme, async (c) => {
    const chosen = c.req.valid("json").theme;
    await saveTheme(c.var.db, me(c).id, chosen);
    return c.json({ theme: chosen }, 200);
  })
  .openapi(email, async (c) =>
    c.json(await changeEmail(c.env, c.var.db, me(c), c.req.valid("json"), siteOrigin(c.env, c.req.url)), 200),
  );

const profile = createRoute({
  method: "patch",
  path: "/users",
  summary: "Edit your name, description, headline, location and links; signed upload links for a new avatar or cover",
  ...signedIn(readBody),
  request: { body: jsonBody(ProfileEdit) },
  responses: { 200: typed<{ user: User; avatar: UploadSlot | null; cover: UploadSlot | null }>("You, and the links") },
});

/** PATCH /v1/users: name, description, and signed upload links for a new avatar or cover. */
export const profileRoutes = router().openapi(profile, async (c) => {
  const { avatar, cover, ...fields } = c.req.valid("json");
  const uid = me(c).id;
  const origin = new URL(c.req.url).origin;
  const [a] = avatar ? await createUploads(c.env, c.var.db, uid, "avatar", [avatar], origin) : [];
  const [k] = cover ? await createUploads(c.env, c.var.db, uid, "cover", [cover], origin) : [];
  await editProfile(actionOf(c), uid, { ...fields, avatar: a?.file_url, cover: k?.file_url });
  return c.json({ user: await loadUser(c.var.db, { id: uid }, uid), avatar: a ?? null, cover: k ?? null }, 200);
});
