import { vitePlugin as remix, cloudflareDevProxyVitePlugin as remixCloudflareDevProxy } from "@remix-run/dev";
import { defineConfig } from "vite";
import { ICONS } from "./app/components/icons";
import { iconSprite } from "./scripts/icon-sprite.mjs";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    iconSprite(ICONS, new URL("./app/icons.svg", import.meta.url).pathname),
    remixCloudflareDevProxy(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  // In the browser's bundle terser's two passes make the first-load JS of / about 4 KB (gzip)
  // smaller than esbuild's minifier: room the icon set needs under the 100 KB budget. Licence
  // comments are kept. The worker's bundle is not minified (as before).
  build: isSsrBuild
    ? {}
    : {
        minify: "terser",
        terserOptions: { compress: { passes: 2 }, format: { comments: "some" } },
        // The small modules every page's first load needs travel as one chunk: each chunk of its
        // own cost a request and ~100 B of gzip framing (first-load budget of issue 22).
        rollupOptions: {
          output: {
            manualChunks: (id: string) =>
              /\/app\/(lib\/(hydrated|time|scroll|counts|record|revalidate|toggle)\.ts|components\/(Ago|JsFlag|Avatar)\.tsx)$/.test(
                id,
              )
                ? "core"
                : undefined,
          },
        },
      },
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  ssr: { resolve: { conditions: ["workerd", "worker", "browser"] } },
}));
