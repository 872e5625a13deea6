// Demo pictures for `npm run seed`, drawn here (no network): avatars, profile covers and note
// photos, stored in the local R2 bucket through wrangler's getPlatformProxy, each with the upload
// row the app keeps for every stored image (so the cleanup cron never takes them for orphans). Keys
// are fixed per picture: a re-run overwrites the same objects and inserts no second row.
// They are lossy WebP, as a phone's upload would be (the upload route takes WebP): drawn as PNG they
// were the largest bytes of the home page, and its largest paint waited on them.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import encode, { init } from "@jsquash/webp/encode.js";

// The codec's own loader fetches its .wasm by URL, which Node cannot do for a file: it is given here.
const codec = init(
  await WebAssembly.compile(readFileSync(new URL(import.meta.resolve("@jsquash/webp/codec/enc/webp_enc_simd.wasm")))),
);

/** A WebP of `w`×`h` whose pixel (x, y) is `paint(x, y)` → [r, g, b]. */
export async function webp(w, h, paint) {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      data.set(paint(x, y), (y * w + x) * 4);
      data[(y * w + x) * 4 + 3] = 255;
    }
  }
  await codec;
  return new Uint8Array(await encode({ data, width: w, height: h, colorSpace: "srgb" }, { quality: 80 }));
}

const hex = (c) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16));
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * Math.min(1, Math.max(0, t))));

/** The largest an avatar is shown (the profile's, in CSS pixels). */
export const AVATAR_CSS_MAX = 88;

/**
 * An avatar: a diagonal gradient with soft rings around an off-centre point, drawn at twice the
 * largest size the pages show it (sharp on a 2× screen, no bytes beyond that).
 */
export function avatar(from, to, seed) {
  const [a, b] = [hex(from), hex(to)];
  const side = 2 * AVATAR_CSS_MAX;
  const k = side / 192;
  const cx = k * (80 + (seed % 5) * 20);
  const cy = k * (70 + (seed % 3) * 30);
  return webp(side, side, (x, y) => {
    const d = Math.hypot(x - cx, y - cy) / k;
    const ring = 0.12 * Math.sin(d / (9 + (seed % 4)));
    return mix(a, b, (x + y) / (2 * side) + ring);
  });
}

/** A profile cover: evening sky over layered hills. */
export function cover(from, to, seed) {
  const [a, b] = [hex(from), hex(to)];
  return webp(900, 300, (x, y) => {
    let c = mix(a, b, y / 300);
    for (let layer = 0; layer < 3; layer++) {
      const ridge = 170 + layer * 40 + 22 * Math.sin(x / (70 + layer * 30) + seed + layer * 2);
      if (y > ridge) c = mix(c, [20 + layer * 15, 30 + layer * 10, 50 + layer * 8], 0.35 + layer * 0.15);
    }
    return c;
  });
}

/** A note's photo: a sun over water and mountains, in the palette given. */
export function scene(sky, ground, seed) {
  const [s, g] = [hex(sky), hex(ground)];
  const sunX = 150 + ((seed * 97) % 500);
  return webp(800, 500, (x, y) => {
    const horizon = 330;
    const mountain = 250 + 45 * Math.sin(x / 90 + seed) + 20 * Math.sin(x / 31 + seed * 3);
    if (y < horizon) {
      let c = mix([255, 250, 235], s, y / horizon);
      const sun = Math.hypot(x - sunX, y - 190);
      if (sun < 46) c = mix([255, 214, 120], c, sun / 60);
      if (y > mountain) c = mix(g, [15, 25, 35], (y - mountain) / 160);
      return c;
    }
    const wave = 0.08 * Math.sin(y / 3 + x / 40);
    return mix(s, [10, 30, 60], (y - horizon) / 170 + wave);
  });
}

/** The fixed key of one demo picture (the upload route's shape: u/{uid}/{purpose}/{24 hex}.webp). */
export const keyOf = (uid, purpose, name) =>
  `u/${uid}/${purpose}/${createHash("sha256").update(`notex-demo:${uid}:${purpose}:${name}`).digest("hex").slice(0, 24)}.webp`;

/**
 * Stores the pictures in the local R2 bucket (one wrangler platform proxy for all of them), drawing
 * only those not there yet (a re-run draws nothing), and answers the SQL for their upload rows.
 * @param {{ key: string, uid: number, purpose: string, draw: () => Promise<Uint8Array> }[]} images
 */
export async function storeImages(images, persistTo, q) {
  const { getPlatformProxy } = await import("wrangler");
  // wrangler's --persist-to DIR keeps its state in DIR/v3; the proxy's path is that state itself.
  const proxy = await getPlatformProxy({ persist: persistTo ? { path: `${persistTo}/v3` } : true });
  try {
    for (const img of images) {
      const there = await proxy.env.IMAGES.head(img.key);
      const bytes = there ? null : await img.draw();
      img.size = there ? there.size : bytes.length;
      if (bytes) await proxy.env.IMAGES.put(img.key, bytes, { httpMetadata: { contentType: "image/webp" } });
    }
  } finally {
    await proxy.dispose();
  }
  const now = Date.now();
  return images.map(
    (img) =>
      `INSERT OR IGNORE INTO uploads (key, user_id, purpose, content_type, max_size, expires_at, uploaded_at, created_at) VALUES (${q(img.key)}, ${img.uid}, ${q(img.purpose)}, 'image/webp', ${img.size}, ${now}, ${now}, ${now});`,
  );
}
