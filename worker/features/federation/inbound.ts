// What a remote server did runs the same action as the same act made here: an inbound one, shown
// and streamed here, never delivered again (federate.ts ActionContext).
import type { Context } from "@fedify/fedify";
import { dbFor } from "../../db/client";
import type { FedData } from "./context";
import type { ActionContext } from "./federate";

export const inboundAction = (ctx: Context<FedData>): ActionContext => ({
  db: dbFor(ctx.data.env.DB),
  env: ctx.data.env,
  origin: ctx.canonicalOrigin,
  inbound: true,
  after: async (what, work) => {
    await work().catch((e) => console.error(what, (e as Error)?.message ?? e));
  },
});
