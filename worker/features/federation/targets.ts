// What an inbound activity names here: one of this server's people, or a post stored here. Apart
// from inbox.ts so the listeners' helpers (receive.ts) read it without importing the inbox.
import type { InboxContext } from "@fedify/fedify";
import { Note } from "@fedify/vocab";
import type { FedData } from "./context";
import { isLocalId } from "./data";
import { replyOfNumber } from "../../lib/ids";

type Ctx = InboxContext<FedData>;

/** A local note or reply that a URI names: ours (/ap/notes/{id}, /ap/notes/r{id}) or one stored from elsewhere. */
export async function localTarget(ctx: Ctx, uri: URL | null): Promise<{ kind: "note" | "reply"; id: number } | null> {
  if (!uri) return null;
  const parsed = ctx.parseUri(uri);
  if (parsed?.type === "object" && parsed.class === Note) {
    const m = /^(r?)(\d+)$/.exec(parsed.values.id ?? "");
    if (m) return m[1] ? { kind: "reply", id: replyOfNumber(Number(m[2])) } : { kind: "note", id: Number(m[2]) };
  }
  const stored = await ctx.data.env.DB.prepare(
    "select kind, row_id from remote_objects where uri = ? and kind in ('note', 'reply')",
  )
    .bind(uri.href)
    .first<{ kind: "note" | "reply"; row_id: number }>();
  return stored ? { kind: stored.kind, id: stored.row_id } : null;
}

/**
 * The local account a URI names (an actor of ours), or null. A person stored from elsewhere has an
 * id under /ap/users/ too, but nothing addressed to it is theirs to take here.
 */
export async function localActor(ctx: Ctx, uri: URL | null): Promise<number | null> {
  const parsed = uri ? ctx.parseUri(uri) : null;
  if (parsed?.type !== "actor" || !/^\d+$/.test(parsed.identifier)) return null;
  const id = Number(parsed.identifier);
  return (await isLocalId(ctx.data.env.DB, id)) ? id : null;
}
