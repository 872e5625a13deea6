import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { apiFor, cookieHeaders, result } from "~/lib/api.server";

// Spec 4: logout calls the API, clears the account and goes to /.
export async function action({ request, context }: ActionFunctionArgs) {
  const res = await result(apiFor(request, context).v1.logout.$get());
  return redirect("/", { headers: cookieHeaders(res) });
}

export const loader = () => redirect("/");
