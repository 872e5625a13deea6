import { z } from "zod";

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
