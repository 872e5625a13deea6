/** The current location with one query parameter set (or removed when value is null). */
export function withParam(location: { pathname: string; search: string }, key: string, value: string | null): string {
  const params = new URLSearchParams(location.search);
  if (value === null) params.delete(key);
  else params.set(key, value);
  const q = params.toString();
  return `${location.pathname}${q ? `?${q}` : ""}`;
}

/** Where to return after a dialog or login: only same-site paths, never an open redirect. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  const s = typeof to === "string" ? to : "";
  return s.startsWith("/") && !s.startsWith("//") && !s.startsWith("/\\") ? s : fallback;
}
