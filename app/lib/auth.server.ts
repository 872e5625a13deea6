import { type AppLoadContext, data, redirect } from "@remix-run/cloudflare";
import { SignupStep1, SignupStep2 } from "../../worker/features/users/users.schema";
import { fieldErrors } from "../../worker/lib/errors";
import type { AuthActionData } from "~/components/AuthForms";
import { apiFor, cookieHeaders, result } from "./api.server";
import { errorText } from "./errors";
import { safeRedirect } from "./url";

const str = (f: FormData, k: string) => String(f.get(k) ?? "");

/** The /login action: log in, the two sign-up steps, and Back. Rules stay in the API and the shared schema. */
export async function authAction(request: Request, context: AppLoadContext) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const intent = str(form, "intent");
  const values = { email: str(form, "email"), name: str(form, "name"), username: str(form, "username") };

  if (intent === "login") {
    const json = { username: str(form, "username"), password: str(form, "password") };
    const res = await result(api.v1.login.$post({ json }));
    if (res.ok) return redirect(safeRedirect(form.get("redirectTo")), { headers: cookieHeaders(res) });
    return data<AuthActionData>(
      { form: "login", error: errorText(res.error, "login"), fields: res.error.fields, values },
      { status: res.status },
    );
  }
  if (intent === "back") return { form: "signup", step: 1, values } satisfies AuthActionData;
  if (intent === "signup1") {
    const p = SignupStep1.safeParse(values);
    if (!p.success)
      return data<AuthActionData>({ form: "signup", step: 1, fields: fieldErrors(p.error), values }, { status: 422 });
    return {
      form: "signup",
      step: 2,
      values: { ...values, name: p.data.name, email: p.data.email },
    } satisfies AuthActionData;
  }
  if (intent === "signup") {
    const step2 = SignupStep2.safeParse({
      username: values.username,
      password: str(form, "password"),
      confirm: str(form, "confirm"),
    });
    if (!step2.success)
      return data<AuthActionData>(
        { form: "signup", step: 2, fields: fieldErrors(step2.error), values },
        { status: 422 },
      );
    const json = { ...values, username: step2.data.username, password: step2.data.password };
    const res = await result(api.v1.signup.$post({ json }));
    if (res.ok) return redirect("/", { headers: cookieHeaders(res) });
    const fields = res.error.fields ?? {};
    // Errors in the first step's fields send the person back to that step to fix them.
    const step = fields.email || fields.name ? 1 : 2;
    // Said once: an error that belongs to a field stands beside that field only.
    const error = res.status === 422 || Object.keys(fields).length ? null : errorText(res.error, "signup");
    return data<AuthActionData>({ form: "signup", step, error, fields, values }, { status: res.status });
  }
  throw new Response("Unknown intent", { status: 400 });
}
