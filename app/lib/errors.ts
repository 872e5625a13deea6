// Spec 8: every failed call is normalised to status/code/message, then shown per its context.
export interface ApiError {
  status: number;
  code: string | number;
  message: string;
  fields?: Record<string, string>;
}

export function normalizeError(status: number | undefined, body: unknown): ApiError {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  return {
    status: status || 500,
    code: (b.code as string | number | undefined) ?? -1,
    message: typeof b.message === "string" && b.message ? b.message : "undefined error",
    ...(b.fields && typeof b.fields === "object" ? { fields: b.fields as Record<string, string> } : {}),
  };
}

export type ErrorContext =
  | "signup"
  | "login"
  | "password"
  | "username"
  | "email"
  | "folder"
  | "like"
  | "bookmark"
  | "renote"
  | "general";

const CATALOGUE: Partial<Record<ErrorContext, Record<number, string>>> = {
  signup: { 409: "Username already exists. Please choose another." },
  folder: { 409: "You already have this x-folder" },
  username: { 409: "username is taken", 422: "username is not valid" },
  login: { 422: "Invalid username or password.", 401: "Username or password is incorrect." },
  password: { 422: "password is not valid", 401: "current password is not correct." },
  email: { 422: "email is not valid" },
};

/** The text a person sees for an error, or null where the spec says it is only logged. */
export function errorText(err: ApiError, context: ErrorContext = "general"): string | null {
  if (err.status === 429) {
    if (context === "like" || context === "bookmark" || context === "renote") {
      console.warn("rate limited", context);
      return null;
    }
    return "Too many requests, please try again.";
  }
  if (err.status === 412) return "Recaptcha failed, please try again.";
  return CATALOGUE[context]?.[err.status] ?? "Something went wrong, please try again.";
}
