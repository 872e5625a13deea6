// Demo pictures for `npm run seed`, drawn here (no network): avatars, profile covers and note
// photos as PNGs (fflate's zlib, the PNG chunks by hand), stored in the local R2 bucket through
// wrangler's getPlatformProxy, each with the upload row the app keeps for every stored image
// (so the cleanup cron never takes them for orphans). Keys are fixed per picture: a re-run
// overwrites the same objects and inserts no second row.
import { createHash } from "node:crypto";
import { zlibSync } from "fflate";

const CRC = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** An RGB PNG of `w`×`h` whose pixel (x, y) is `paint(x, y)` → [r, g, b]. */
export function png(w, h, paint) {
  const raw = new Uint8Array((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w; x++) raw.set(paint(x, y), row + 1 + x * 3);
  }
  const head = new Uint8Array(13);
  const v = new DataView(head.buffer);
  v.setUint32(0, w);
  v.setUint32(4, h);
  head.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", head),
    chunk("IDAT", zlibSync(raw, { level: 6 })),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const hex = (c) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16));
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * Math.min(1, Math.max(0, t))));

/** An avatar: a diagonal gradient with soft rings around an off-centre point. */
export function avatar(from, to, seed) {
  const [a, b] = [hex(from), hex(to)];
  const cx = 80 + (seed % 5) * 20;
  const cy = 70 + (seed % 3) * 30;
  return png(192, 192, (x, y) => {
    const d = Math.hypot(x - cx, y - cy);
    const ring = 0.12 * Math.sin(d / (9 + (seed % 4)));
    return mix(a, b, (x + y) / 384 + ring);
  });
}

/** A profile cover: evening sky over layered hills. */
export function cover(from, to, seed) {
  const [a, b] = [hex(from), hex(to)];
  return png(900, 300, (x, y) => {
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
  return png(800, 500, (x, y) => {
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

/** The fixed key of one demo picture (the upload route's shape: u/{uid}/{purpose}/{24 hex}.png). */
export const keyOf = (uid, purpose, name) =>
  `u/${uid}/${purpose}/${createHash("sha256").update(`notex-demo:${uid}:${purpose}:${name}`).digest("hex").slice(0, 24)}.png`;

/**
 * Stores the pictures in the local R2 bucket (one wrangler platform proxy for all of them), drawing
 * only those not there yet (a re-run draws nothing), and answers the SQL for their upload rows.
 * @param {{ key: string, uid: number, purpose: string, draw: () => Uint8Array }[]} images
 */
export async function storeImages(images, persistTo, q) {
  const { getPlatformProxy } = await import("wrangler");
  // wrangler's --persist-to DIR keeps its state in DIR/v3; the proxy's path is that state itself.
  const proxy = await getPlatformProxy({ persist: persistTo ? { path: `${persistTo}/v3` } : true });
  try {
    for (const img of images) {
      const there = await proxy.env.IMAGES.head(img.key);
      const bytes = there ? null : img.draw();
      img.size = there ? there.size : bytes.length;
      if (bytes) await proxy.env.IMAGES.put(img.key, bytes, { httpMetadata: { contentType: "image/png" } });
    }
  } finally {
    await proxy.dispose();
  }
  const now = Date.now();
  return images.map(
    (img) =>
      `INSERT OR IGNORE INTO uploads (key, user_id, purpose, content_type, max_size, expires_at, uploaded_at, created_at) VALUES (${q(img.key)}, ${img.uid}, ${q(img.purpose)}, 'image/png', ${img.size}, ${now}, ${now}, ${now});`,
  );
}
