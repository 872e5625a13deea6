import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { JS_COOKIE } from "../worker/lib/js-marker";

// Lets CSS hide controls that only work with JavaScript (copy buttons) when it is off.
document.documentElement.dataset.js = "1";
// Tells the worker this browser runs JavaScript: its signed-in page views then start from the
// shared app shell (worker/lib/shell.ts) instead of a page rendered for it alone.
document.cookie = `${JS_COOKIE}=1; Path=/; Max-Age=31536000; SameSite=Lax${location.protocol === "https:" ? "; Secure" : ""}`;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
