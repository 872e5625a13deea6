// A report the reporter chose to forward goes to the reported person's server as a Flag naming
// their actor and the reported post, sent by the instance actor so the reporter stays anonymous
// (Mastodon's ReportService#forward_to_origin!, sent by Account.representative; Misskey does the
// same).
import type { Context } from "@fedify/fedify";
import { Flag } from "@fedify/vocab";
import type { Env } from "../../env";
import { REPORT_KINDS } from "../reports/reports.constants";
import { type FedData, INSTANCE, type OutMessage } from "./context";
import { remoteActorById } from "./data";
import { recipientOf } from "./objects";

type Ctx = Context<FedData>;

/** The reported thing's author (only someone elsewhere) and, for a post, its own URI there. */
async function reported(env: Env, kind: "note" | "reply" | "user", id: number) {
  const owner =
    kind === "user"
      ? id
      : (
          await env.DB.prepare(`select user_id from ${kind === "note" ? "notes" : "replies"} where id = ?`)
            .bind(id)
            .first<{ user_id: number }>()
        )?.user_id;
  const actor = owner ? await remoteActorById(env.DB, owner) : null;
  if (!actor) return null;
  const object =
    kind === "user"
      ? null
      : await env.DB.prepare("select uri from remote_objects where kind = ? and row_id = ?")
          .bind(kind, id)
          .first<{ uri: string }>();
  return { actor, object: object?.uri ?? null };
}

/**
 * The Flag's text (Mastodon shows it to its moderators as the report's comment): the reason, then
 * the reporter's words ("Spam: posts every hour"); inbox.ts reads the same shape back.
 */
export const flagContent = (reason: number, note?: string) => {
  const kind = REPORT_KINDS[reason as keyof typeof REPORT_KINDS] ?? "Other";
  return note ? `${kind}: ${note}` : kind;
};

export async function flagOut(ctx: Ctx, env: Env, m: Extract<OutMessage, { notex: "flag" }>) {
  const target = await reported(env, m.kind, m.id);
  if (!target) return;
  // The report's other posts go in the same Flag when they are that person's too (one report there).
  const posts = [target.object];
  for (const p of m.more ?? []) {
    const other = await reported(env, p.kind, p.id);
    if (other?.actor.uri === target.actor.uri) posts.push(other.object);
  }
  const actor = ctx.getActorUri(INSTANCE);
  const flag = new Flag({
    id: new URL(`${actor.href}#reports/${crypto.randomUUID()}`),
    actor,
    objects: [target.actor.uri, ...posts.filter((u): u is string => !!u)].map((u) => new URL(u)),
    content: flagContent(m.reason, m.note),
  });
  await ctx.sendActivity({ identifier: INSTANCE }, recipientOf(target.actor), flag);
}
