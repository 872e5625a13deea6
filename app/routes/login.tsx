import { withViewer } from "~/lib/page.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { type AuthActionData, LoginForm, SignupForm } from "~/components/AuthForms";
import { signedIn } from "~/lib/api.server";
import { authAction } from "~/lib/auth.server";

export const meta: MetaFunction = () => [{ title: "Log in · NoteX" }];

async function ownData({ request, context }: LoaderFunctionArgs) {
  if (signedIn(context)) throw redirect("/");
  const params = new URL(request.url).searchParams;
  return { signup: params.get("dialog") === "signup", reset: params.get("reset") === "1" };
}

export const action = ({ request, context }: ActionFunctionArgs) => authAction(request, context);

export default function Login() {
  const { signup, reset } = useLoaderData<typeof loader>();
  const data = useActionData<AuthActionData>();
  const showSignup = data ? data.form === "signup" : signup;
  return (
    <section className="page narrow">
      <h1>{showSignup ? "Sign up" : "Log in to NoteX"}</h1>
      {reset && !showSignup && (
        <p className="notice ok" role="status">
          Your password was changed and every device was signed out. Log in with your new password.
        </p>
      )}
      {showSignup ? <SignupForm data={data} /> : <LoginForm data={data} />}
    </section>
  );
}

export const loader = (args: LoaderFunctionArgs) => withViewer(args, () => ownData(args));
