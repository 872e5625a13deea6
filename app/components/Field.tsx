import { type InputHTMLAttributes, useId, useState } from "react";
import { Icon } from "./Icon";

/** A labelled input with its error beside it (aria-describedby), the same with or without JS. */
export function Field({
  label,
  error,
  hint,
  type = "text",
  ...rest
}: { label: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const [show, setShow] = useState(false);
  const isPassword = type === "password";
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field-row">
        <input
          id={id}
          type={isPassword && show ? "text" : type}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : hint ? `${id}-hint` : undefined}
          {...rest}
        />
        {isPassword && (
          <button
            type="button"
            className="eye"
            aria-label={show ? "Hide password" : "Show password"}
            aria-pressed={show}
            onClick={() => setShow((s) => !s)}
          >
            {show ? <Icon name="eye-off" size={18} /> : <Icon name="eye" size={18} />}
          </button>
        )}
      </div>
      {hint && !error && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="error" id={`${id}-err`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The primary submit button of a form, in its own row. */
export function SubmitRow({ label, busy }: { label: string; busy?: boolean }) {
  return (
    <div className="row">
      <button type="submit" className="btn primary" disabled={busy}>
        {label}
      </button>
    </div>
  );
}

/** An error announced when it appears: a field's (`error`) or a whole form's (`form-error`). */
const Alert = ({ className, text }: { className: string; text?: string | null }) =>
  text ? (
    <p className={className} role="alert">
      {text}
    </p>
  ) : null;

/** The error of a field that is not a <Field> (a file, a text box of its own). */
export const FieldError = ({ error }: { error?: string | null }) => <Alert className="error" text={error} />;

/** A form's own error (not one field's). */
export const FormError = ({ error }: { error?: string | null }) => <Alert className="form-error" text={error} />;

type FieldErrors = Partial<Record<string, string>>;

/** Spec 4's hint under a new password. */
export const PASSWORD_HINT = "Password must be at least 6 characters long";

/** The account's email address (sign-up, forgot password, Settings). */
export function EmailField({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  return (
    <Field label="Email" name="email" type="email" autoComplete="email" defaultValue={defaultValue} error={error} />
  );
}

/** A new password and its confirmation (sign-up, reset, Settings): one place for their names and hints. */
export function NewPasswordFields({
  name = "password",
  label = "Password",
  hint,
  errors,
}: {
  name?: string;
  label?: string;
  hint?: string;
  errors?: FieldErrors;
}) {
  return (
    <>
      <Field label={label} name={name} type="password" autoComplete="new-password" hint={hint} error={errors?.[name]} />
      <Field
        label="Confirm password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        error={errors?.confirm}
      />
    </>
  );
}
