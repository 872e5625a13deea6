// Shared with the browser's bundle (app/root.tsx), so nothing is imported here.

/** Set by the app's script on every page: this browser runs JavaScript (lib/shell.ts). */
export const JS_COOKIE = "nx_js";

/** Where a shell sends a browser that carries the marker but has JavaScript off. */
export const NOJS_PATH = "/nojs";
