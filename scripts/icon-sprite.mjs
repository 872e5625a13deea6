// The icon sprite (issue 22): app/icons.svg holds one <symbol> per lucide icon the app names
// (app/components/icons.ts), drawn by lucide-react itself so the paths are the ones it would have
// inlined. Pages then carry <svg><use href="/assets/icons-<hash>.svg#name"/></svg> (~100 B) instead
// of each icon's full markup (~450 B), and the file is fetched once and cached for good.
//
// vite.config.ts runs this when a build or the dev server starts, and rewrites the file only when
// it changed; the file is committed so vitest and tsc need no build.
import { readFileSync, writeFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/** The sprite's text for these icon names. */
export async function spriteOf(names) {
  const symbols = [];
  for (const name of [...names].sort()) {
    const { default: Icon } = await import(`lucide-react/icons/${name}`);
    const svg = renderToStaticMarkup(createElement(Icon));
    const inner = svg.replace(/^<svg[^>]*>/, "").replace(/<\/svg>$/, "");
    symbols.push(`<symbol id="${name}" viewBox="0 0 24 24">${inner}</symbol>`);
  }
  // Stroke, fill and caps come from the page's .lucide rule (inherited into the <use>), so one
  // symbol serves the outlined and the filled heart alike.
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join("\n")}\n</svg>\n`;
}

/** Vite plugin: keeps `file` in step with `names` whenever a build or the dev server starts. */
export function iconSprite(names, file) {
  return {
    name: "notex-icon-sprite",
    async buildStart() {
      const text = await spriteOf(names);
      let old = "";
      try {
        old = readFileSync(file, "utf8");
      } catch {}
      if (old !== text) writeFileSync(file, text);
    },
  };
}
