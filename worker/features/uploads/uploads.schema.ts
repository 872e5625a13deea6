import { z } from "zod";
import { MAX_IMAGES } from "../notes/notes.constants";

/** One image to upload (avatar, cover, folder logo): the API answers a signed PUT link for it. */
export const ImageUpload = z.object({
  key: z.string().max(300).optional(),
  file_size: z
    .number()
    .int()
    .positive()
    .max(5 * 1024 * 1024, "Image is too large."),
  file_ext: z.string().max(10).default("jpg"),
});

/**
 * POST /v1/uploads: slots for a note's new images, reserved before the note is saved, so the
 * browser can PUT them first and a saved note never points at an image still on its way (issue
 * 21 item 17). The spec's flow (uploads in POST /v1/notes, PUT after) still works.
 */
export const NoteUploads = z.object({
  uploads: z
    .array(
      ImageUpload.extend({
        file_size: z
          .number()
          .int()
          .positive()
          .max(10 * 1024 * 1024, "Image is too large."),
      }),
    )
    .min(1, "Add an image to upload.")
    .max(MAX_IMAGES, "You can only add up to 10 images."),
});
