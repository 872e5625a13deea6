import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body, param } from "../../lib/validate";
import { eq } from "drizzle-orm";
import { users as usersTable } from "../../db/schema/users";
import { createUploads } from "../uploads/uploads.links";
import { ChangeEmail, ChangeUsername, ProfileEdit } from "./users.schema";
import { changeUsername, loadUser } from "./users.service";
import { changeEmail, siteOrigin } from "../accounts/accounts.service";
import { findRemote } from "../federation/federate";
import { isRemoteQuery } from "../federation/handles";
import { notFound } from "../../lib/errors";

// A name here, `name@host` on another server, or a profile URL there (search resolves those).
const UsernameParam = z.object({ username: z.string().min(1).max(500) });

export const users = new Hono<AppEnv>()
  .get("/me", requireUser, async (c) => {
    const uid = me(c).id;
    return c.json(await loadUser(c.var.db, { id: uid }, uid));
  })
  .get("/users/:username", param(UsernameParam), async (c) => {
    const { username: raw } = c.req.valid("param");
    const viewer = c.var.user?.id ?? null;
    // name@host or a profile URL is a person on another server (worker/features/federation): found there first.
    if (isRemoteQuery(raw)) {
      const id = await findRemote(c, raw);
      if (id === null) throw notFound("User not found");
      return c.json(await loadUser(c.var.db, { id }, viewer));
    }
    return c.json(await loadUser(c.var.db, { username: raw.replace(/^@/, "") }, viewer));
  })
  .patch("/users/username", requireUser, body(ChangeUsername), async (c) =>
    c.json(await changeUsername(c.var.db, me(c).id, c.req.valid("json").username)),
  )
  .patch("/users/email", requireUser, body(ChangeEmail), async (c) =>
    c.json(await changeEmail(c.env, c.var.db, me(c).id, c.req.valid("json").email, siteOrigin(c.env, c.req.url))),
  );

/** PATCH /v1/users: name, description, and signed upload links for a new avatar or cover. */
export const profileRoutes = new Hono<AppEnv>().patch("/users", requireUser, body(ProfileEdit), async (c) => {
  const { name, descr, avatar, cover } = c.req.valid("json");
  const uid = me(c).id;
  const origin = new URL(c.req.url).origin;
  const [a] = avatar ? await createUploads(c.env, c.var.db, uid, "avatar", [avatar], origin) : [];
  const [k] = cover ? await createUploads(c.env, c.var.db, uid, "cover", [cover], origin) : [];
  await c.var.db
    .update(usersTable)
    .set({ fullname: name, descr, ...(a ? { avatar: a.file_url } : {}), ...(k ? { cover: k.file_url } : {}) })
    .where(eq(usersTable.id, uid));
  return c.json({ user: await loadUser(c.var.db, { id: uid }, uid), avatar: a ?? null, cover: k ?? null });
});
