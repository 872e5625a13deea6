import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { api } from "../../worker/api";

// Only reached under `npm run dev` (Vite serves everything through Remix there); in the built
// worker /v1 is answered by Hono before Remix ever sees the request.
const forward = ({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) =>
  api.fetch(request, context.cloudflare.env, context.cloudflare.ctx);

export const loader = forward;
export const action = forward;
