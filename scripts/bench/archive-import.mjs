// The archive-import row of the bench (`npm run bench:archive -- --posts 10000 --images 2000`):
// a Mastodon archive of --posts posts and --images images (built here, in Mastodon's shape: an
// outbox of Create activities, media stored uncompressed as Mastodon's zip writer stores them)
// is uploaded to the built worker on loopback, previewed, and imported by the import queue. It
// reports the time from the upload to the job's end (preview and import apart), posts per
// second, D1 trips per chunk (a queue step: one part of 50 posts) and D1 rows written per post:
// the import's own batches (the consumer's metered D1,
// printed by the worker as `imports.archive` lines) and the job's bookkeeping (one import_rows
// row in and out per post). It also reports images per second, the worker's memory (workerd's
// resident set, sampled: the consumer runs in it, beside the requests), and checks that every post,
// reply and image arrived (rows counted in the local D1, each image fetched from /img).
// Writes bench/archive-import.json.
import "../dev-vars.mjs";
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { strToU8, zipSync } from "fflate";
import { d1Local } from "../d1-local.mjs";
import { freshLocalD1 } from "../local-worker.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const POSTS = Number(arg("posts", 10_000));
const IMAGES = Number(arg("images", 2_000));
const IMAGE_BYTES = Number(arg("image-bytes", 20_000));
const PORT = Number(arg("port", 8897));
const BASE = `http://127.0.0.1:${PORT}`;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (!process.argv.includes("--no-build")) execFileSync("npm", ["run", "build", "--silent"], { stdio: "inherit", env });

/** A real PNG header (1×1) followed by filler: sniffed as an image, sized like a small photo. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** The archive: every fifth post answers the one before it (a thread), images spread over the rest. */
function buildArchive() {
  const actor = "https://old.example/users/ana";
  const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
  const files = {};
  const items = [];
  let image = 0;
  for (let n = 1; n <= POSTS; n++) {
    const reply = n % 5 === 0;
    const media = [];
    if (!reply && image < IMAGES && n % Math.max(1, Math.floor((POSTS * 0.8) / IMAGES)) === 0) {
      const path = `media_attachments/files/${String(image).padStart(6, "0")}/original/${image}.png`;
      files[path] = [Buffer.concat([PNG, randomBytes(IMAGE_BYTES)]), { level: 0 }];
      media.push({ type: "Document", mediaType: "image/png", url: path, name: `Picture ${image}` });
      image++;
    }
    const published = new Date(Date.UTC(2019, 0, 1) + n * 600_000).toISOString();
    items.push({
      id: `${actor}/statuses/${n}/activity`,
      type: "Create",
      actor,
      published,
      to: [PUBLIC],
      cc: [`${actor}/followers`],
      object: {
        id: `${actor}/statuses/${n}`,
        type: "Note",
        inReplyTo: reply ? `${actor}/statuses/${n - 1}` : null,
        published,
        url: `https://old.example/@ana/${n}`,
        attributedTo: actor,
        to: [PUBLIC],
        cc: [`${actor}/followers`],
        content: `<p>Post ${n} from the old place, with a #tag${n % 50} and a link https://example.org/${n}</p>`,
        attachment: media,
        tag: [],
      },
    });
  }
  const json = (v) => strToU8(JSON.stringify(v));
  files["outbox.json"] = json({ type: "OrderedCollection", totalItems: items.length, orderedItems: items });
  files["actor.json"] = json({ id: actor, type: "Person", name: "Ana", followers: `${actor}/followers` });
  return { zip: zipSync(files), images: image };
}

const persist = ".wrangler/bench-archive";
freshLocalD1(persist, env);
const g0 = performance.now();
const built = buildArchive();
const generateS = Math.round((performance.now() - g0) / 100) / 10;
console.log(
  `archive: ${POSTS} posts, ${built.images} images, ${(built.zip.length / 1048576).toFixed(1)} MB in ${generateS} s`,
);

// The worker, its output read for the consumer's metered lines.
const worker = spawn(
  process.execPath,
  ["scripts/worker-process.mjs", JSON.stringify({ port: PORT, persist, vars: {} })],
  {
    env: { ...env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  },
);
const steps = [];
const tail = [];
let pending = "";
const onLog = (chunk) => {
  pending += chunk;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    // The worker's last words, shown when the run fails.
    tail.push(line);
    if (tail.length > 40) tail.shift();
    const at = line.indexOf('{"t":"imports.archive"');
    // The worker may colour its lines: the JSON ends at its last brace.
    if (at >= 0) steps.push(JSON.parse(line.slice(at, line.lastIndexOf("}") + 1)));
  }
};
worker.stderr.setEncoding("utf8").on("data", onLog);
worker.stdout.setEncoding("utf8").on("data", onLog);
const stop = () => {
  try {
    process.kill(-worker.pid, "SIGTERM");
  } catch {}
};
process.on("exit", stop);

/** Resident MB of the worker's process group (node, wrangler, workerd), by /proc (Linux). */
function residentMb() {
  let kb = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Field 5 (after the parenthesised name) is the process group.
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== worker.pid) continue;
      if (!stat.includes("(workerd)")) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return Math.round(kb / 1024);
}
const memory = { idle: 0, preview_peak: 0, import_peak: 0 };
let phase = "idle";
const sampler = setInterval(() => {
  const mb = residentMb();
  if (phase === "idle") memory.idle = mb;
  else memory[`${phase}_peak`] = Math.max(memory[`${phase}_peak`], mb);
}, 250);

/**
 * A GET, tried again when the connection drops: workerd may close a kept-alive socket (the one
 * the upload went over) just as the next request is written on it.
 */
async function reading(url, init) {
  for (let i = 0; ; i++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (i >= 4) throw error;
      await sleep(200);
    }
  }
}

/** Every image the import stored, fetched back: how many answered 200 with an image type. */
async function imagesServed(keys) {
  let ok = 0;
  const queue = [...keys];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let key = queue.pop(); key; key = queue.pop()) {
        const res = await reading(`${BASE}/img/${key}`);
        if (res.ok && (res.headers.get("content-type") ?? "").startsWith("image/")) ok++;
        await res.arrayBuffer();
      }
    }),
  );
  return ok;
}

try {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${BASE}/v1/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 240) throw new Error("the worker did not start");
    await sleep(500);
  }
  const headers = { "x-forwarded-for": "127.0.0.9" };
  const signup = await fetch(`${BASE}/v1/signup`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ email: "ana@example.com", name: "Ana", username: "anabench", password: "secret123" }),
  });
  const { token, message } = await signup.json();
  if (!token) throw new Error(`signup: ${signup.status} ${message}`);
  const auth = { ...headers, authorization: `Bearer ${token}` };
  const form = new FormData();
  form.set("file", new File([built.zip], "archive.zip", { type: "application/zip" }));
  await sleep(1000);
  phase = "preview";
  const t0 = performance.now();
  const previewRes = await fetch(`${BASE}/v1/imports/archive`, { method: "POST", headers: auth, body: form });
  const preview = await previewRes.json();
  if (!previewRes.ok) throw new Error(`preview: ${previewRes.status} ${JSON.stringify(preview)}`);
  const t1 = performance.now();
  phase = "import";
  const startRes = await fetch(`${BASE}/v1/imports/archive/${preview.id}/start`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ profile: "keep" }),
  });
  const started = await startRes.json();
  if (!startRes.ok) throw new Error(`start: ${startRes.status} ${JSON.stringify(started)}`);
  let job = started.job;
  while (job.state === "queued" || job.state === "running") {
    await sleep(500);
    job = await (await reading(`${BASE}/v1/imports/jobs/${job.id}`, { headers: auth })).json();
    job = job.job ?? job;
  }
  const t2 = performance.now();
  clearInterval(sampler);
  // What arrived: the rows in D1 (the import's own dates and links), every image served from R2.
  const [have] = d1Local(
    `select (select count(*) from notes n join users u on u.id = n.user_id where u.username = 'anabench' and n.origin_url is not null) as notes,
       (select count(*) from replies r join users u on u.id = r.user_id where u.username = 'anabench' and r.origin_url is not null) as replies,
       (select count(*) from uploads p join users u on u.id = p.user_id where u.username = 'anabench' and p.purpose = 'note') as images;`,
    persist,
  );
  const keys = d1Local(
    "select p.key from uploads p join users u on u.id = p.user_id where u.username = 'anabench' and p.purpose = 'note';",
    persist,
  ).map((r) => r.key);
  const served = await imagesServed(keys);
  const written = steps.reduce((s, x) => s + x.written, 0);
  const posts = steps.reduce((s, x) => s + x.posts, 0);
  const row = {
    posts: POSTS,
    images: built.images,
    archive_mb: Math.round((built.zip.length / 1048576) * 10) / 10,
    generate_s: generateS,
    counts: preview.counts,
    state: job.state,
    done: job.done,
    failed: job.failed,
    preview_s: Math.round((t1 - t0) / 100) / 10,
    import_s: Math.round((t2 - t1) / 100) / 10,
    posts_per_s: Math.round(POSTS / ((t2 - t1) / 1000)),
    images_per_s: Math.round(built.images / ((t2 - t1) / 1000)),
    present: { ...have, images_served: served, all: have.notes + have.replies === POSTS && served === built.images },
    workerd_rss_mb: memory,
    steps: steps.length,
    posts_per_chunk: steps.length ? Math.round(posts / steps.length) : null,
    d1_trips_per_chunk: steps.length
      ? Math.round((steps.reduce((s, x) => s + x.trips, 0) / steps.length) * 10) / 10
      : null,
    d1_trips_per_chunk_max: steps.length ? Math.max(...steps.map((x) => x.trips)) : null,
    d1_ms_per_chunk: steps.length ? Math.round(steps.reduce((s, x) => s + x.ms, 0) / steps.length) : null,
    d1_rows_written_per_post: posts ? Math.round((written / posts) * 100) / 100 : null,
    job_rows_written_per_post: 2,
  };
  console.log(JSON.stringify(row, null, 2));
  mkdirSync("bench", { recursive: true });
  writeFileSync("bench/archive-import.json", `${JSON.stringify(row, null, 2)}\n`);
  // A run that lost a post or an image is a failed run.
  if (job.state !== "done" || !row.present.all) process.exitCode = 1;
} catch (error) {
  console.error(tail.join("\n"));
  throw error;
} finally {
  stop();
}
