import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body, param } from "../../lib/validate";
import { ChangeEmail, ChangeUsername } from "./users.schema";
import { changeEmail, changeUsername, loadUser } from "./users.service";

const UsernameParam = z.object({ username: z.string().min(1).max(100) });

export const users = new Hono<AppEnv>()
  .get("/me", requireUser, async (c) => c.json(await loadUser(c.var.db, { id: me(c).id }, me(c).id)))
  .get("/users/:username", param(UsernameParam), async (c) => {
    const { username } = c.req.valid("param");
    return c.json(await loadUser(c.var.db, { username }, c.var.user?.id ?? null));
  })
  .patch("/users/username", requireUser, body(ChangeUsername), async (c) =>
    c.json(await changeUsername(c.var.db, me(c).id, c.req.valid("json").username)),
  )
  .patch("/users/email", requireUser, body(ChangeEmail), async (c) =>
    c.json(await changeEmail(c.var.db, me(c).id, c.req.valid("json").email)),
  );
