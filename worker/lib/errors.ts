import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";

// The worker bundle holds two copies of this module: the worker's own, and the one inside the Remix
// server build that pages call the API through. An AppError made by one copy can reach the other's
// error handler, so `instanceof` asks for a mark in the isolate-wide symbol registry, which both
// copies share, not for this copy's class.
const MARK = Symbol.for("notex.AppError");

/** The one error type of the API: a stable code, an HTTP status and a message for people. */
export class AppError extends Error {
  readonly [MARK] = true;
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }

  static [Symbol.hasInstance](value: unknown): value is AppError {
    return typeof value === "object" && value !== null && (value as { [MARK]?: boolean })[MARK] === true;
  }
}

export const notFound = (what = "Not found") => new AppError(404, "not_found", what);
export const unauthorized = () => new AppError(401, "unauthorized", "Please log in to continue.");
export const forbidden = () => new AppError(403, "forbidden", "You are not allowed to do that.");
export const tooMany = () => new AppError(429, "rate_limited", "Too many requests, please try again.");

/** First message per field, in schema order; the first of all is the headline message. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

export function invalid(error: z.ZodError, status: ContentfulStatusCode = 422, message?: string): AppError {
  const fields = fieldErrors(error);
  return new AppError(status, "invalid_input", message ?? Object.values(fields)[0] ?? "invalid input", fields);
}

export function toErrorResponse(err: Error, c: Context) {
  // An AppError thrown inside a drizzle call reaches here wrapped by drizzle (its cause).
  if (!(err instanceof AppError) && err.cause instanceof AppError) return toErrorResponse(err.cause, c);
  if (err instanceof AppError) {
    return c.json({ code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) }, err.status);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return c.json({ code: "http_error", message: err.message || "Bad request" }, status);
  }
  console.error("unhandled", err);
  return c.json({ code: "internal", message: "Something went wrong, please try again." }, 500);
}
