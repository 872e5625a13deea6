import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";

// Lets CSS hide controls that only work with JavaScript (copy buttons) when it is off.
document.documentElement.dataset.js = "1";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// The server's HTML is the first paint. Scripts that are already in when the page is parsed run
// before Chrome draws anything, so a long page stayed blank until React had hydrated it (Lighthouse
// on `/`: first paint 1.8 s, or 1.0 s when the draw happened to come first). Hydration starts once
// the parsed page has been drawn: after the next frame (a hidden tab draws none, and waits for none).
if (document.visibilityState === "hidden") hydrate();
else requestAnimationFrame(() => setTimeout(hydrate));
