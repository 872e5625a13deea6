import { type InputHTMLAttributes, type ReactNode, useId, useState } from "react";
import { Icon } from "./Icon";

/** A labelled input with its error beside it (aria-describedby), the same with or without JS. */
export function Field({
  label,
  error,
  hint,
  status,
  type = "text",
  ...rest
}: {
  label: string;
  error?: string;
  /** The field's rules, said before anyone breaks them (kept beside an error). */
  hint?: string;
  /** A live word about the value as it is typed (a username's availability). */
  status?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>) {
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
          aria-describedby={[hint && `${id}-hint`, error && `${id}-err`].filter(Boolean).join(" ") || undefined}
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
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {status}
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
export function EmailField({
  defaultValue,
  error,
  autoFocus,
}: {
  defaultValue?: string;
  error?: string;
  autoFocus?: boolean;
}) {
  return (
    <Field
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      defaultValue={defaultValue}
      error={error}
      autoFocus={autoFocus}
    />
  );
}

/** A new password and its confirmation (sign-up, reset, Settings): one place for their names and hints. */
export function NewPasswordFields({
  name = "password",
  label = "Password",
  hint,
  errors,
  focus,
}: {
  name?: string;
  label?: string;
  hint?: string;
  errors?: FieldErrors;
  /** The field (by name) that gets the focus: the form's first error. */
  focus?: string;
}) {
  return (
    <>
      <Field
        label={label}
        name={name}
        type="password"
        autoComplete="new-password"
        hint={hint}
        error={errors?.[name]}
        autoFocus={focus === name}
      />
      <Field
        label="Confirm password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        error={errors?.confirm}
        autoFocus={focus === "confirm"}
      />
    </>
  );
}
