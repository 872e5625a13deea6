// Profile edit: the one function both doors call (/v1 and the pages' Settings, a Mastodon app's
// update_credentials). Each door brings its pictures its own way (a signed upload link, a
// multipart file) and hands over their addresses; what the edit writes, and whom it is told to,
// is decided here.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/users";
import { type ActionContext, tellServers } from "../federation/federate";

export interface ProfileFields {
  name: string;
  descr: string;
  /** A new picture's address; left out, the picture stays. */
  avatar?: string;
  cover?: string;
}

export async function editProfile(ctx: ActionContext, who: number, fields: ProfileFields) {
  const { name, descr, avatar, cover } = fields;
  const [row] = await ctx.db
    .update(users)
    .set({ fullname: name, descr, ...(avatar ? { avatar } : {}), ...(cover ? { cover } : {}) })
    .where(eq(users.id, who))
    .returning();
  // Every server that knows the person shows the new profile (Update(Person)).
  await tellServers(ctx, { notex: "account", op: "update", uid: who });
  return row;
}
