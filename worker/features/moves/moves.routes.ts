// /v1/moves: Settings → "Moving from another account" (aliases) and moving this account out.
import { z } from "zod";
import { AppError, invalid } from "../../lib/errors";
import { me, requireUser } from "../../lib/session";
import { router } from "../../lib/validate";
import { siteOriginOf } from "../federation/context";
import { addAlias, moveOut, removeAlias } from "./moves.service";
import { moveState } from "./state";

const Handle = z.string().trim().min(1, "Enter the account's address.").max(300, "That address is too long.");
const AliasInput = z.object({ handle: Handle });
const AliasUri = z.object({ uri: z.string().max(2000) });
const MoveInput = z.object({
  handle: Handle,
  password: z.string().max(200).optional(),
  username: z.string().max(100).optional(),
});

async function body<T extends z.ZodType>(schema: T, read: Promise<unknown>): Promise<z.infer<T>> {
  const parsed = schema.safeParse(await read.catch(() => null));
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

export const moveRoutes = router()
  .use(requireUser)
  .get("/", async (c) => c.json(await moveState(c.env, siteOriginOf(c.env, c.req.url), me(c).id), 200))
  .post("/aliases", async (c) => c.json(await addAlias(c, (await body(AliasInput, c.req.json())).handle), 200))
  .delete("/aliases", async (c) => {
    const q = AliasUri.safeParse({ uri: c.req.query("uri") });
    if (!q.success) throw new AppError(400, "invalid_input", "Which alias?");
    return c.json(await removeAlias(c, q.data.uri), 200);
  })
  .post("/", async (c) => c.json(await moveOut(c, await body(MoveInput, c.req.json())), 200));
