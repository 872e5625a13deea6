// Renders the app icons (manifest, apple-touch-icon) from the logo SVG with Debian's Chromium, so
// no image library is needed: `node scripts/icons.mjs` writes public/icons/*.png (committed).
import { writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

const BRAND = "#1d4ed8";
const N = "M9 23V9h3l8 9V9h3v14h-3l-8-9v9z"; // the "N" of public/favicon.svg (32-unit grid)

/** The logo on a rounded tile ("any") or full-bleed with the mark inside the 80 % safe zone ("maskable"). */
const svg = (maskable) =>
  maskable
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/><path transform="translate(16 16) scale(0.9) translate(-16 -16)" d="${N}" fill="#fff"/></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${BRAND}"/><path d="${N}" fill="#fff"/></svg>`;

const ICONS = [
  { file: "icon-192.png", size: 192, maskable: false },
  { file: "icon-512.png", size: 512, maskable: false },
  { file: "maskable-512.png", size: 512, maskable: true },
  // iOS draws its own rounded corners over a full-bleed square.
  { file: "apple-touch-icon.png", size: 180, maskable: true },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  for (const { file, size, maskable } of ICONS) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg(maskable)}`,
    );
    writeFileSync(`public/icons/${file}`, await page.screenshot({ omitBackground: true }));
    console.log(`public/icons/${file} ${size}x${size}`);
  }
} finally {
  await browser.close();
}
