// The archive's profile (name, bio with its fields, avatar, header), taken only when the person
// asked for it in the preview: written through the profile edit every other door uses, so the
// servers that know the person are told as for any edit (an Update, not a post).
import type { DB, Env } from "../../../env";
import { runBatch } from "../../../db/client";
import type { ActionContext } from "../../federation/federate";
import { editProfile } from "../../users/profile.action";
import { ProfileEdit } from "../../users/users.schema";
import { MAX_BYTES } from "../../uploads/uploads.links";
import { storeArchiveImage, type StoredImage, uploadRows } from "./run";
import { r2Reader, type Staged, stagedKey } from "./stage";
import type { ZipEntry } from "./zipdir";

export interface ProfileOutcome {
  changed: boolean;
  left: string[];
}

/** The archive's profile onto the person's, keeping what the archive lacks or what does not pass. */
export async function takeProfile(ctx: ActionContext & { db: DB; env: Env }, uid: number, staged: Staged) {
  const read = r2Reader(ctx.env, stagedKey(uid, staged.id, "archive.zip"));
  const left: string[] = [];
  const now = Date.now();
  const picture = async (entry: ZipEntry | null, purpose: "avatar" | "cover") => {
    if (!entry) return null;
    const stored = await storeArchiveImage(
      ctx.env,
      read,
      entry,
      async (ext) => `u/${uid}/${purpose}/archive-${staged.id}.${ext}`,
      MAX_BYTES[purpose],
      "",
    );
    if (typeof stored === "string") left.push(stored);
    return typeof stored === "string" ? null : stored;
  };
  const avatar = await picture(staged.profile.avatarEntry, "avatar");
  const cover = await picture(staged.profile.headerEntry, "cover");
  const rows = (image: StoredImage | null, purpose: string) =>
    image ? uploadRows(ctx.db, uid, [image], purpose, now) : [];
  const statements = [...rows(avatar, "avatar"), ...rows(cover, "cover")];
  if (statements.length) await runBatch(ctx.db, statements);
  const fields = ProfileEdit.pick({ name: true, descr: true }).safeParse({
    name: staged.profile.name.slice(0, 99),
    descr: staged.profile.bio.slice(0, 299),
  });
  if (!fields.success) {
    left.push(`the profile's ${fields.error.issues[0]?.path[0] === "name" ? "name" : "bio"} does not fit here`);
    return { changed: false, left };
  }
  await editProfile(ctx, uid, {
    ...fields.data,
    avatar: avatar ? `/img/${avatar.key}` : undefined,
    cover: cover ? `/img/${cover.key}` : undefined,
  });
  return { changed: true, left };
}
