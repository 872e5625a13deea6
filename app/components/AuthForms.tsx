import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useIsoLayoutEffect } from "~/lib/hydrated";
import { dialogHref } from "~/lib/scroll";
import { EmailField, Field, FormError, NewPasswordFields } from "./Field";

export interface AuthActionData {
  form: "login" | "signup";
  step?: 1 | 2;
  error?: string | null;
  fields?: Record<string, string>;
  values?: Record<string, string>;
}

/** Google's multicolour "G" mark, as their sign-in branding guidelines require (not recoloured). */
function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}

function GoogleButton() {
  return (
    <a className="btn google" href="/v1/login/google/start" data-google>
      <GoogleMark /> Continue with Google
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
        <FormError error={d?.error ? d.error : undefined} />
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
        <Link to={location.pathname === "/login" ? "/login?dialog=signup" : dialogHref(location, "signup")}>
          Sign up
        </Link>
      </p>
      <Legal />
    </div>
  );
}

const USERNAME_HINT = "5–34 characters: a letter (a-z) first, then letters, digits or _";
const SIGNUP_PASSWORD_HINT = "6–44 characters, with at least one letter and one number";

/** The first field of `order` that has an error: it gets the focus (with or without JavaScript). */
const firstError = (fields: Record<string, string> | undefined, order: string[]) => order.find((k) => fields?.[k]);

/** Two-step sign-up (spec 4): email and display name, then username, password and confirmation. */
export function SignupForm({ data: pageData }: { data?: AuthActionData }) {
  const fetcher = useFetcher<AuthActionData>({ key: "signup" });
  const d = fetcher.data?.form === "signup" ? fetcher.data : pageData?.form === "signup" ? pageData : undefined;
  const step = d?.step ?? 1;
  const v = d?.values ?? {};
  const f = d?.fields;
  const first = firstError(f, step === 1 ? ["email", "name"] : ["username", "password", "confirm"]);
  const form = useRef<HTMLFormElement>(null);
  // With JavaScript the answer comes into the same form: focus goes to its first error, as the
  // autoFocus does on a page rendered by the server. Once per answer, in the commit that shows it:
  // moved any later, it would pull a person already typing in the next field back to the first.
  useIsoLayoutEffect(() => {
    if (fetcher.data) form.current?.querySelector<HTMLElement>("[aria-invalid]")?.focus();
  }, [fetcher.data]);
  return (
    <div className="auth">
      {step === 1 && <GoogleButton />}
      <fetcher.Form method="post" action="/login" noValidate key={step} ref={form}>
        <p className="step">Step {step} of 2</p>
        <FormError error={d?.error ? d.error : undefined} />
        {step === 1 ? (
          <>
            {/* Back from step 2 keeps the username typed there for the next Next. */}
            {v.username && <input type="hidden" name="username" value={v.username} />}
            <EmailField defaultValue={v.email} error={f?.email} autoFocus={first === "email"} />
            <Field
              label="Name"
              name="name"
              autoComplete="name"
              hint="As people will see it, up to 35 characters"
              defaultValue={v.name}
              error={f?.name}
              autoFocus={first === "name"}
            />
            <button className="btn primary" type="submit" name="intent" value="signup1">
              Next
            </button>
          </>
        ) : (
          <>
            <input type="hidden" name="email" value={v.email ?? ""} />
            <input type="hidden" name="name" value={v.name ?? ""} />
            <UsernameField value={v.username} error={f?.username} autoFocus={first === "username" || !first} />
            <NewPasswordFields hint={SIGNUP_PASSWORD_HINT} errors={f} focus={first} />
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

type Check = { name: string; available: boolean; message: string | null };

/**
 * The username with its rules up front and, with JavaScript, whether it can be had as it is typed
 * (a moment after the last key). An error from the last submit stands until the name is changed.
 */
function UsernameField({ value, error, autoFocus }: { value?: string; error?: string; autoFocus: boolean }) {
  const [name, setName] = useState(value ?? "");
  const [check, setCheck] = useState<Check | null>(null);
  const wanted = name.trim().toLowerCase();
  const edited = wanted !== (value ?? "").trim().toLowerCase();
  useEffect(() => {
    if (!wanted || !edited) return setCheck(null);
    const ask = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/v1/signup/username/${encodeURIComponent(wanted)}`, { signal: ask.signal })
        .then((r) => (r.ok ? (r.json() as Promise<Omit<Check, "name">>) : null))
        .then((c) => c && setCheck({ name: wanted, ...c }))
        .catch(() => {});
    }, 350);
    return () => {
      clearTimeout(timer);
      ask.abort();
    };
  }, [wanted, edited]);
  const shown = check?.name === wanted ? check : null;
  return (
    <Field
      label="Username"
      name="username"
      autoComplete="username"
      hint={USERNAME_HINT}
      defaultValue={value}
      onChange={(e) => setName(e.target.value)}
      error={edited ? undefined : error}
      autoFocus={autoFocus}
      status={
        <p className={shown && !shown.available ? "error" : "hint ok"} role="status">
          {shown ? (shown.available ? `${shown.name} is available` : shown.message) : null}
        </p>
      }
    />
  );
}
