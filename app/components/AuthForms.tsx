import { Link, useFetcher, useLocation } from "@remix-run/react";
import { withParam } from "~/lib/url";
import { Field } from "./Field";

export interface AuthActionData {
  form: "login" | "signup";
  step?: 1 | 2;
  error?: string | null;
  fields?: Record<string, string>;
  values?: Record<string, string>;
}

function GoogleButton() {
  return (
    <a className="btn google" href="/v1/login/google/start" data-google>
      <span aria-hidden="true">G</span> Continue with Google
    </a>
  );
}

function Legal() {
  return (
    <p className="legal">
      By continuing you agree to our <Link to="/terms">Terms</Link> and <Link to="/policy">Privacy Policy</Link>.
    </p>
  );
}

/** Login: in the dialog a fetcher keeps errors in place; without JS it posts to /login like any form. */
export function LoginForm({ data: pageData }: { data?: AuthActionData }) {
  const fetcher = useFetcher<AuthActionData>({ key: "login" });
  const location = useLocation();
  const d = fetcher.data?.form === "login" ? fetcher.data : pageData?.form === "login" ? pageData : undefined;
  const redirectTo =
    location.pathname === "/login" ? "/" : `${location.pathname}${location.search}`.replace(/[?&]dialog=login/, "");
  return (
    <div className="auth">
      <GoogleButton />
      <div className="or">or</div>
      <fetcher.Form method="post" action="/login" noValidate>
        <input type="hidden" name="intent" value="login" />
        <input type="hidden" name="redirectTo" value={redirectTo || "/"} />
        {d?.error && (
          <p className="form-error" role="alert">
            {d.error}
          </p>
        )}
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          defaultValue={d?.values?.username}
          error={d?.fields?.username}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={d?.fields?.password}
        />
        <p className="forgot-link">
          <Link to="/forgot">Forgot password?</Link>
        </p>
        <button className="btn primary" type="submit" disabled={fetcher.state !== "idle"}>
          Log in
        </button>
      </fetcher.Form>
      <p>
        No account?{" "}
        <Link to={location.pathname === "/login" ? "/login?dialog=signup" : withParam(location, "dialog", "signup")}>
          Sign up
        </Link>
      </p>
      <Legal />
    </div>
  );
}

/** Two-step sign-up (spec 4): email and display name, then username, password and confirmation. */
export function SignupForm({ data: pageData }: { data?: AuthActionData }) {
  const fetcher = useFetcher<AuthActionData>({ key: "signup" });
  const d = fetcher.data?.form === "signup" ? fetcher.data : pageData?.form === "signup" ? pageData : undefined;
  const step = d?.step ?? 1;
  const v = d?.values ?? {};
  return (
    <div className="auth">
      {step === 1 && <GoogleButton />}
      <fetcher.Form method="post" action="/login" noValidate key={step}>
        <p className="step">Step {step} of 2</p>
        {d?.error && (
          <p className="form-error" role="alert">
            {d.error}
          </p>
        )}
        {step === 1 ? (
          <>
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              defaultValue={v.email}
              error={d?.fields?.email}
            />
            <Field label="Name" name="name" autoComplete="name" defaultValue={v.name} error={d?.fields?.name} />
            <button className="btn primary" type="submit" name="intent" value="signup1">
              Next
            </button>
          </>
        ) : (
          <>
            <input type="hidden" name="email" value={v.email ?? ""} />
            <input type="hidden" name="name" value={v.name ?? ""} />
            <Field
              label="Username"
              name="username"
              autoComplete="username"
              defaultValue={v.username}
              error={d?.fields?.username}
            />
            <Field
              label="Password"
              name="password"
              type="password"
              autoComplete="new-password"
              error={d?.fields?.password}
            />
            <Field
              label="Confirm password"
              name="confirm"
              type="password"
              autoComplete="new-password"
              error={d?.fields?.confirm}
            />
            <div className="row">
              <button className="btn" type="submit" name="intent" value="back" formNoValidate>
                Back
              </button>
              <button
                className="btn primary"
                type="submit"
                name="intent"
                value="signup"
                disabled={fetcher.state !== "idle"}
              >
                Sign up
              </button>
            </div>
          </>
        )}
      </fetcher.Form>
      <Legal />
    </div>
  );
}
