import { z } from "zod";
import { normaliseLink } from "../../lib/links";
import { multiLineText } from "../../lib/params";
import { CONTROL_MESSAGE, hasControl, oneLine } from "../../lib/text";
import { ImageUpload } from "../uploads/uploads.schema";

const text = (field: string, required: string | null, max: number, message: string) =>
  z
    .string()
    .default("")
    .transform(oneLine)
    .pipe(
      (required ? z.string().min(1, required) : z.string())
        .max(max, message)
        .refine((s) => !hasControl(s), `${field} ${CONTROL_MESSAGE}`),
    );

/** A month as an <input type="month"> sends it ("YYYY-MM"), or nothing. */
const month = (message: string) =>
  z
    .string()
    .default("")
    .transform((s) => s.trim())
    .pipe(z.string().regex(/^(|\d{4}-(0[1-9]|1[0-2]))$/, message));

/** Spec 5 folder rules, word for word. */
const FolderFields = z.object({
  type: text("folder type", "please select or enter a type", 30, "folder type must be less than 30 characters"),
  name: text("name", "name is required", 250, "name must be less than 250 characters"),
  descr: multiLineText("description", 500, "description must be less than 500 characters"),
  link: z
    .string()
    .default("")
    .transform((s) => s.trim())
    .pipe(z.string().max(300, "link must be less than 300 characters"))
    .transform((s) => (s ? (normaliseLink(s) ?? "") : "")),
  /** An optional logo: the API answers a signed upload link for it. */
  upload: ImageUpload.optional(),
  /** Experience types only (others keep none): a job title, a degree, a role. */
  role: text("role", null, 100, "role must be less than 100 characters"),
  /** "YYYY-MM", or empty; a start without an end is ongoing. */
  start_month: month("start must be a month (YYYY-MM)"),
  end_month: month("end must be a month (YYYY-MM)"),
});

/** The fields, with an experience's months in order (an end needs a start, and comes after it). */
export const FolderInput = FolderFields.refine((f) => !f.end_month || f.start_month, {
  path: ["start_month"],
  message: "please add the start month",
}).refine((f) => !f.end_month || !f.start_month || f.end_month >= f.start_month, {
  path: ["end_month"],
  message: "end must not be before start",
});

/** A URL slug from a folder name: lowercase words joined by dashes. */
export function slugify(name: string): string {
  const s = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return s || "folder";
}
