// What an app asks first: the server's name, limits and features (GET /api/v1|v2/instance).
import { Hono } from "hono";
import { MAX_ALT, MAX_IMAGES, MAX_TEXT } from "../notes/notes.constants";
import type { MastoEnv } from "./masto.http";

export const SOFTWARE_NAME = "notex";
export const SOFTWARE_VERSION = "0.1.0";
/**
 * Apps read the Mastodon version to know which endpoints exist; NoteX follows 4.5's shapes, and
 * says "compatible" as GoToSocial does (Mastodon.py and others then treat it as Mastodon).
 */
export const VERSION = `4.5.0 (compatible; NoteX ${SOFTWARE_VERSION})`;
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
const IMAGE_MAX = 10 * 1024 * 1024;

const origin = (url: string, configured?: string) => configured || new URL(url).origin;

/** Where apps open the streaming API (features/live): the site's own host, wss:// behind TLS. */
const streamingOf = (base: string) => base.replace(/^http/, "ws");

function configuration(base: string) {
  return {
    urls: { streaming: streamingOf(base), status: null },
    vapid: { public_key: "" },
    accounts: { max_featured_tags: 0, max_pinned_statuses: 0 },
    statuses: { max_characters: MAX_TEXT, max_media_attachments: MAX_IMAGES, characters_reserved_per_url: 23 },
    media_attachments: {
      supported_mime_types: IMAGE_TYPES,
      description_limit: MAX_ALT,
      image_size_limit: IMAGE_MAX,
      image_matrix_limit: 33_177_600,
      video_size_limit: 0,
      video_frame_rate_limit: 0,
      video_matrix_limit: 0,
    },
    // NoteX has no polls: every limit 0, so apps hide the poll button.
    polls: { max_options: 0, max_characters_per_option: 0, min_expiration: 0, max_expiration: 0 },
    translation: { enabled: false },
  };
}

const DESCRIPTION = "NoteX: notes under an x-label, x-folders as a portfolio, follows, likes and replies.";

export const instanceRoutes = new Hono<MastoEnv>()
  .get("/api/v2/instance", (c) => {
    const base = origin(c.req.url, c.env.APP_ORIGIN);
    return c.json({
      domain: new URL(base).host,
      title: "NoteX",
      version: VERSION,
      source_url: base,
      description: DESCRIPTION,
      usage: { users: { active_month: 0 } },
      thumbnail: { url: `${base}/favicon.svg` },
      icon: [],
      languages: ["en"],
      configuration: configuration(base),
      registrations: { enabled: true, approval_required: false, message: null, url: `${base}/login?dialog=signup` },
      api_versions: { mastodon: 6 },
      contact: { email: "", account: null },
      rules: [],
    });
  })
  .get("/api/v1/instance", (c) => {
    const base = origin(c.req.url, c.env.APP_ORIGIN);
    const config = configuration(base);
    return c.json({
      uri: new URL(base).host,
      title: "NoteX",
      short_description: DESCRIPTION,
      description: DESCRIPTION,
      email: "",
      version: VERSION,
      urls: { streaming_api: streamingOf(base) },
      stats: { user_count: 0, status_count: 0, domain_count: 0 },
      thumbnail: `${base}/favicon.svg`,
      languages: ["en"],
      registrations: true,
      approval_required: false,
      invites_enabled: false,
      configuration: { statuses: config.statuses, media_attachments: config.media_attachments, polls: config.polls },
      contact_account: null,
      rules: [],
    });
  })
  .get("/api/v1/instance/rules", (c) => c.json([]))
  .get("/api/v1/instance/peers", (c) => c.json([]))
  .get("/api/v1/instance/activity", (c) => c.json([]))
  .get("/api/v1/custom_emojis", (c) => c.json([]));
