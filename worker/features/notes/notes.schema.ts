import { z } from "zod";
import { Decoded } from "../uploads/uploads.schema";
import { idField } from "../../lib/params";
import { htmlToText, sanitizeHtml } from "../../lib/sanitize";
import { stripInvisible } from "../../lib/text";
import {
  MAX_ALT,
  MAX_FOLDERS,
  MAX_IMAGES,
  MAX_LABEL,
  MAX_TAG_LEN,
  MAX_TAGS,
  MAX_TEXT,
  youtubeId,
} from "./notes.constants";

const EMOJI = /\p{Extended_Pictographic}/u;

export const Label = z
  .string({ error: "Please select a x-label." })
  .transform((s) => stripInvisible(s).trim().toLowerCase().replace(/\s+/g, " "))
  .pipe(
    z
      .string()
      .min(1, "Please select a x-label.")
      .max(MAX_LABEL, `x-label should be less than or equal ${MAX_LABEL} character long.`)
      .refine((s) => !EMOJI.test(s), "Cannot contain emoji.")
      .refine((s) => !/[\p{Cc}<>]/u.test(s), "x-label contains invalid characters."),
  );

/** #words of a note's text: the spec's tag rules apply to every one. */
export function extractTags(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:^|[\s(])#([^\s#,.;:!?()[\]{}"'<>]+)/g)) out.add(m[1]);
  return [...out];
}

export function tagError(tags: string[]): string | null {
  if (tags.length > MAX_TAGS) return "Number of tags should be less than or equal 15.";
  for (const t of tags) {
    if (t.length > MAX_TAG_LEN) return "Tag should be less than or equal 50 character long.";
    if (!/^\p{L}/u.test(t)) return "First character of a tag should be a letter.";
    if (!/^[\p{L}\p{N}]+$/u.test(t)) return "Tag should contain only letter or number.";
  }
  return null;
}

const Upload = z.object({
  key: z.string().max(300).optional(),
  file_size: z
    .number({ error: "file_size must be a number" })
    .int()
    .positive()
    .max(10 * 1024 * 1024, "Image is too large."),
  file_ext: z.string().max(10).default("jpg"),
  ...Decoded,
});

const Id = idField("invalid id");

/** The note body of POST and PATCH /v1/notes; `content` is HTML (the editor's), sanitised here. */
export const NoteInput = z
  .object({
    id: Id.optional(),
    label: Label,
    content: z
      .string({ error: "Please enter your note." })
      .max(200_000, "Note should be less than or equal 2800 character long."),
    imgs: z
      .union([z.string(), z.array(z.string())])
      .default("")
      .transform((v) => (Array.isArray(v) ? v : v.split(";")).map((s) => s.trim()).filter(Boolean)),
    video: z.string().max(500).default(""),
    folders: z
      .array(Id, { error: "folders must be a list of ids" })
      .max(MAX_FOLDERS, "You can only select up to 20 folders.")
      .default([]),
    uploads: z.array(Upload).max(MAX_IMAGES, "You can only add up to 10 images.").default([]),
    /** Alt text per image, in the order of imgs then uploads. */
    alts: z
      .array(z.string().max(MAX_ALT, "Image description must be less than 1500 characters."), {
        error: "alts must be a list of texts",
      })
      .max(MAX_IMAGES * 2, "Too many image descriptions.")
      .default([]),
  })
  .transform((v, ctx) => {
    const content = sanitizeHtml(v.content);
    const txt = htmlToText(content);
    if (!txt.trim()) ctx.addIssue({ code: "custom", path: ["content"], message: "Please enter your note." });
    if ([...txt].length > MAX_TEXT)
      ctx.addIssue({
        code: "custom",
        path: ["content"],
        message: "Note should be less than or equal 2800 character long.",
      });
    const tags = extractTags(txt);
    const tagErr = tagError(tags);
    if (tagErr) ctx.addIssue({ code: "custom", path: ["tags"], message: tagErr });
    const video = v.video.trim() ? youtubeId(v.video) : "";
    if (video === null) ctx.addIssue({ code: "custom", path: ["video"], message: "Invalid YouTube link." });
    const images = v.imgs.length + v.uploads.length;
    if (images > MAX_IMAGES)
      ctx.addIssue({ code: "custom", path: ["imgs"], message: "You can only add up to 10 images." });
    if (images > 0 && video)
      ctx.addIssue({ code: "custom", path: ["video"], message: "A note can have images or a video, not both." });
    return {
      ...v,
      content,
      txt,
      // One plain-text line per image (control characters and runs of spaces folded).
      alts: Array.from({ length: Math.min(images, MAX_IMAGES) }, (_, i) =>
        stripInvisible((v.alts[i] ?? "").replace(/[\p{Cc}\s]+/gu, " ")).trim(),
      ),
      tags: tags.map((t) => t.toLowerCase()),
      video: video ?? "",
      folders: [...new Set(v.folders)],
    };
  });

export type NoteData = z.output<typeof NoteInput>;

export const RenoteInput = z.object({
  renote_id: Id,
  content: z.string().max(200_000).default(""),
  /** Set by the quote editor: an empty quote is refused instead of becoming a renote. */
  quote: z.boolean().optional(),
});
