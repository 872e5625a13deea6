// Profile edit: the one function both doors call (/v1 and the pages' Settings, a Mastodon app's
// update_credentials). Each door brings its pictures its own way (a signed upload link, a
// multipart file) and hands over their addresses; what the edit writes, and whom it is told to,
// is decided here.
import { eq, sql } from "drizzle-orm";
import { users } from "../../db/schema/users";
import { type ActionContext, tellServers } from "../federation/federate";
import type { ProfileLinkInput } from "./profile.schema";
import { verifyLinks } from "./verify-links";

export interface ProfileFields {
  name: string;
  descr: string;
  /** A new picture's address; left out, the picture stays. */
  avatar?: string;
  cover?: string;
  /** Left out, each stays as it was. */
  headline?: string;
  location?: string;
  links?: ProfileLinkInput[];
}

/**
 * The links as stored: a link whose address did not change keeps its verification (read from the
 * row being written, in the same statement), a new one waits for its check.
 */
const linksSql = (links: ProfileLinkInput[]) => sql`(
  select coalesce(json_group_array(json_object('name', n.value ->> 'name', 'value', n.value ->> 'url',
    'verified_at', (select o.value ->> 'verified_at' from json_each(${users.links}) o where o.value ->> 'value' = n.value ->> 'url'))), '[]')
  from json_each(${JSON.stringify(links)}) n)`;

export async function editProfile(ctx: ActionContext, who: number, fields: ProfileFields) {
  const { name, descr, avatar, cover, headline, location, links } = fields;
  const [row] = await ctx.db
    .update(users)
    .set({
      fullname: name,
      descr,
      ...(avatar ? { avatar } : {}),
      ...(cover ? { cover } : {}),
      ...(headline !== undefined ? { headline } : {}),
      ...(location !== undefined ? { location } : {}),
      ...(links ? { links: linksSql(links) } : {}),
    })
    .where(eq(users.id, who))
    .returning();
  // Every server that knows the person shows the new profile (Update(Person)).
  await tellServers(ctx, { notex: "account", op: "update", uid: who });
  // Each link not yet verified is fetched after the answer, as Mastodon does off the request.
  if (row && links?.length) await ctx.after("verify links", () => verifyLinks(ctx, row));
  return row;
}
