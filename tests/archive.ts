// Mastodon archives built in code, in the shape Mastodon's BackupService writes ("Request your
// archive"): outbox.json (an OrderedCollection of Create and Announce activities, attachment urls
// rewritten to their path in the zip), actor.json (avatar/header named by their file), likes.json,
// bookmarks.json and media_attachments/…. No personal data: everyone lives at old.example.
import { strToU8, zipSync, type Zippable } from "fflate";
import { PNG } from "./images";

export const OLD = "https://old.example";
export const ACTOR = `${OLD}/users/ana`;
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

export type Visibility = "public" | "unlisted" | "private" | "direct";

export interface PostSpec {
  n: number;
  text?: string;
  visibility?: Visibility;
  /** The n of the person's own post it answers, or a URL elsewhere. */
  replyTo?: number | string;
  media?: { path: string; type?: string; alt?: string }[];
  published?: string;
  summary?: string;
}

export const statusUrl = (n: number) => `${OLD}/@ana/${100000 + n}`;
const statusId = (n: number) => `${ACTOR}/statuses/${100000 + n}`;

function audience(v: Visibility) {
  const followers = `${ACTOR}/followers`;
  if (v === "public") return { to: [PUBLIC], cc: [followers] };
  if (v === "unlisted") return { to: [followers], cc: [PUBLIC] };
  if (v === "private") return { to: [followers], cc: [] };
  return { to: [`${OLD}/users/bo`], cc: [] };
}

export function create(p: PostSpec) {
  const published = p.published ?? new Date(Date.UTC(2020, 0, 1) + p.n * 3_600_000).toISOString();
  const { to, cc } = audience(p.visibility ?? "public");
  return {
    id: `${statusId(p.n)}/activity`,
    type: "Create",
    actor: ACTOR,
    published,
    to,
    cc,
    object: {
      id: statusId(p.n),
      type: "Note",
      summary: p.summary ?? null,
      inReplyTo: typeof p.replyTo === "number" ? statusId(p.replyTo) : (p.replyTo ?? null),
      published,
      url: statusUrl(p.n),
      attributedTo: ACTOR,
      to,
      cc,
      sensitive: false,
      content: `<p>${p.text ?? `Post number ${p.n}`}</p>`,
      attachment: (p.media ?? []).map((m) => ({
        type: "Document",
        mediaType: m.type ?? "image/png",
        url: m.path,
        name: m.alt ?? null,
        blurhash: "U00000fQfQfQfQfQfQfQfQfQfQfQ",
        width: 3,
        height: 2,
      })),
      tag: [],
    },
  };
}

export const boost = (n: number) => ({
  id: `${statusId(n)}/activity`,
  type: "Announce",
  actor: ACTOR,
  published: new Date(Date.UTC(2020, 0, 1) + n * 3_600_000).toISOString(),
  to: [PUBLIC],
  cc: [],
  object: `${OLD}/users/bo/statuses/9${n}`,
});

export const actor = (extra: Record<string, unknown> = {}) => ({
  "@context": ["https://www.w3.org/ns/activitystreams"],
  id: ACTOR,
  type: "Person",
  preferredUsername: "ana",
  name: "Ana from Old",
  summary: "<p>Knits, codes, climbs.</p>",
  followers: `${ACTOR}/followers`,
  outbox: "outbox.json",
  likes: "likes.json",
  bookmarks: "bookmarks.json",
  attachment: [{ type: "PropertyValue", name: "Site", value: '<a href="https://ana.example">ana.example</a>' }],
  icon: { type: "Image", mediaType: "image/png", url: "avatar.png" },
  image: { type: "Image", mediaType: "image/png", url: "header.png" },
  ...extra,
});

export const outbox = (items: unknown[]) => ({
  "@context": "https://www.w3.org/ns/activitystreams",
  id: "outbox.json",
  type: "OrderedCollection",
  totalItems: items.length,
  orderedItems: items,
});

/** A zip with the archive's JSON files (given as values or raw text) and any other files. */
export function archive(opts: {
  items?: unknown[];
  outboxText?: string;
  actor?: unknown;
  files?: Record<string, Uint8Array>;
  omit?: string[];
}): Uint8Array {
  const json = (v: unknown) => strToU8(JSON.stringify(v));
  const all: Zippable = {
    "outbox.json": opts.outboxText !== undefined ? strToU8(opts.outboxText) : json(outbox(opts.items ?? [])),
    "actor.json": json(opts.actor ?? actor()),
    "likes.json": json({ type: "OrderedCollection", orderedItems: [] }),
    "bookmarks.json": json({ type: "OrderedCollection", orderedItems: [] }),
    ...opts.files,
  };
  for (const name of opts.omit ?? []) delete all[name];
  return zipSync(all);
}

export const mediaPath = (n: number, ext = "png") =>
  `media_attachments/files/000/000/${String(n).padStart(3, "0")}/original/${n}.${ext}`;

/** An archive with one of each: public with an image, unlisted, a thread, a reply elsewhere, a boost, followers-only, direct, a video. */
export const SAMPLE = [
  create({ n: 1, text: "Hello from the old place #knitting", media: [{ path: mediaPath(1), alt: "A red scarf" }] }),
  create({ n: 2, text: "Quiet one", visibility: "unlisted" }),
  create({ n: 3, text: "Continuing my own thread", replyTo: 1 }),
  create({ n: 4, text: "Answering someone", replyTo: "https://far.example/users/bo/statuses/7" }),
  boost(5),
  create({ n: 6, text: "Only for followers", visibility: "private" }),
  create({ n: 7, text: "Just for Bo", visibility: "direct" }),
  create({ n: 8, text: "A clip", media: [{ path: mediaPath(8, "mp4"), type: "video/mp4" }] }),
  create({ n: 9, text: "Third in my thread", replyTo: 3 }),
];
export const SAMPLE_FILES = {
  [mediaPath(1)]: PNG,
  [mediaPath(8, "mp4")]: strToU8("not really a video"),
  "avatar.png": PNG,
  "header.png": PNG,
};
