// Rails, and so Mastodon, ignores a trailing slash, and apps and scripts send one
// (`/api/v1/instance/`). The machine-read paths answer with or without it, for every method: the
// request is taken as the path without the slash (a redirect, as Hono's trimTrailingSlash does,
// would not carry a POST's body, and would cost browser apps a second CORS round trip).
const MACHINE_PATH = /^\/(api|oauth|\.well-known|nodeinfo)\/.*[^/]\/+$/;

/** The request without its trailing slash, or null when its path is not one of those or has none. */
export function withoutTrailingSlash(request: Request): Request | null {
  const url = new URL(request.url);
  if (!MACHINE_PATH.test(url.pathname)) return null;
  url.pathname = url.pathname.replace(/\/+$/, "");
  return new Request(url, request);
}
