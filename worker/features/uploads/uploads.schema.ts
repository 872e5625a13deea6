import { z } from "zod";
import { MAX_IMAGES } from "../notes/notes.constants";
import { checkedBlurhash } from "./image-dims";

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

const side = z.number().int().positive().max(65535, "An image side is at most 65535 pixels.");

/**
 * What the browser (or the no-JS form's action) saw of a note's picture: its size (the header's
 * wins once the bytes reach the worker) and a blurhash, so pages reserve its box and paint its blur.
 */
export const Decoded = {
  width: side.optional(),
  height: side.optional(),
  blurhash: z
    .string()
    .refine((h) => checkedBlurhash(h) !== null, "blurhash is not a valid blurhash.")
    .optional(),
};

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
        ...Decoded,
      }),
    )
    .min(1, "Add an image to upload.")
    .max(MAX_IMAGES, "You can only add up to 10 images."),
});
