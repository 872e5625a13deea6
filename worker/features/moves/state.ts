// What a local account's actor says about moving (alsoKnownAs, movedTo), read in one round trip.
// Kept free of other features' modules: the actor document and the outbox load it.
import type { Env } from "../../env";

/** Our actor URI for a local account. */
export const actorUri = (origin: string, uid: number) => `${origin.replace(/\/$/, "")}/ap/users/${uid}`;

export interface MoveState {
  aliases: { uri: string; handle: string; created_at: number }[];
  moved_to: { id: number; username: string; uri: string } | null;
}

/** The account's aliases and where it moved to, if it did: one round trip. */
export async function moveState(env: Env, origin: string, uid: number): Promise<MoveState> {
  const [aliases, moved] = await env.DB.batch([
    env.DB.prepare(
      "select uri, handle, created_at from account_aliases where user_id = ? order by created_at, uri",
    ).bind(uid),
    env.DB.prepare(
      `select u.id, u.username, ra.uri from account_moves m join users u on u.id = m.target_id
       left join remote_actors ra on ra.user_id = u.id where m.user_id = ?`,
    ).bind(uid),
  ]);
  const to = moved.results[0] as { id: number; username: string; uri: string | null } | undefined;
  return {
    aliases: aliases.results as MoveState["aliases"],
    moved_to: to ? { id: to.id, username: to.username, uri: to.uri ?? actorUri(origin, to.id) } : null,
  };
}
