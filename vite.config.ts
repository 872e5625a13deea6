import { vitePlugin as remix, cloudflareDevProxyVitePlugin as remixCloudflareDevProxy } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import { ICONS } from "./app/components/icons";
import { iconSprite } from "./scripts/icon-sprite.mjs";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

const WORKER_DIR = new URL("./worker/", import.meta.url).pathname;

/**
 * The server build imports the worker's own modules (the API, the reads, the services) instead of
 * copying them: wrangler bundles both from one source, so the deployed worker holds each once.
 */
function workerModulesShared(): Plugin {
  return {
    name: "notex-worker-modules-shared",
    apply: "build",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!options.ssr || !importer) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved?.id.startsWith(WORKER_DIR)) return null;
      // By package.json's own import map ("#worker/*"), which wrangler's esbuild and vite both read.
      return { id: `#worker/${resolved.id.slice(WORKER_DIR.length)}`, external: true };
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    workerModulesShared(),
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
        // The small modules every page's first load needs (the root's among them: the search field,
        // the toast, vite's preload helper) travel as one chunk: each chunk of its own cost a
        // request and ~100 B of gzip framing (first-load budget of issue 22).
        rollupOptions: {
          output: {
            manualChunks: (id: string) =>
              /\/app\/(lib\/(hydrated|time|scroll|counts|record|revalidate|toggle|viewer|plural)\.ts|components\/(Ago|JsFlag|Avatar|Icon|Toast|Tabs|search\/SearchField)\.tsx)$|vite\/preload-helper/.test(
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
