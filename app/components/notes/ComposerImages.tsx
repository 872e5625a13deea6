import { useEffect, useId, useRef, useState } from "react";
import { MAX_ALT, MAX_IMAGES } from "../../../worker/features/notes/notes.constants";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import { type Answer, ClientError, type V1, write } from "~/lib/client";
import { putImages, scaleImage, uploadExt } from "~/lib/images";
import { Icon } from "../Icon";
import { FieldError } from "../Field";

const ACCEPT =
  "image/png,image/jpeg,image/webp,image/gif,image/tiff,image/bmp,image/heif,.png,.jpg,.jpeg,.webp,.gif,.tiff,.bmp,.heif";

export interface Picked {
  file: File;
  url: string;
}

/**
 * Images picked with JavaScript on, kept here with previews until the note is saved; a preview's
 * URL is freed when its image is removed and when the composer closes.
 */
export function usePickedImages() {
  const [picked, setPicked] = useState<Picked[]>([]);
  const pickedRef = useRef(picked);
  pickedRef.current = picked;
  useEffect(
    () => () => {
      for (const p of pickedRef.current) URL.revokeObjectURL(p.url);
    },
    [],
  );
  return {
    picked,
    add: (files: File[]) =>
      setPicked((p) => [...p, ...files.map((file) => ({ file, url: URL.createObjectURL(file) }))]),
    remove: (p: Picked) => {
      URL.revokeObjectURL(p.url);
      setPicked((all) => all.filter((x) => x !== p));
    },
  };
}

/**
 * With JavaScript new images go up first (scaled, to slots reserved for them) and the note is
 * saved with their URLs, so no page ever shows the note before its images exist (issue 21 item
 * 17: the feed under the dialog reloads at once and asked for them too early). The form gains
 * each image's URL and description; the answer is null, or the message to show.
 */
export async function uploadPicked(picked: Picked[], form: FormData): Promise<string | null> {
  try {
    const prepared = await Promise.all(picked.map((p) => scaleImage(p.file)));
    const { uploads } = await write<Answer<V1["uploads"]["$post"]>>("POST", "/uploads", {
      uploads: prepared.map(({ blob, width, height, blurhash }) => ({
        file_size: blob.size,
        file_ext: uploadExt(blob.type),
        width,
        height,
        blurhash,
      })),
    });
    await putImages(
      uploads,
      prepared.map((p) => p.blob),
    );
    // Each new image's description, now keyed by its URL like a kept image's.
    const alts = form.getAll("alt_new").map(String);
    form.delete("alt_new");
    for (const [i, slot] of uploads.entries()) {
      form.append("imgs", slot.file_url);
      form.set(`alt:${slot.file_url}`, alts[i] ?? "");
    }
    return null;
  } catch (err) {
    return err instanceof ClientError && err.error.message
      ? err.error.message
      : "Some images could not be uploaded. Please try again.";
  }
}

/** An edited note's images: a checkbox keeps each one, with its description. */
export function KeptImages({
  note,
  kept,
  onKeep,
}: {
  note?: NoteJson | null;
  kept: string[];
  onKeep: (src: string, keep: boolean) => void;
}) {
  return (
    <>
      {(note?.images ?? []).map((src, i) => (
        <div key={src} className="keep-image">
          <label>
            <input
              type="checkbox"
              name="imgs"
              value={src}
              checked={kept.includes(src)}
              onChange={(e) => onKeep(src, e.target.checked)}
            />{" "}
            <img src={src} alt={note?.alts?.[i] ?? ""} width={48} height={48} /> keep
          </label>
          <AltField name={`alt:${src}`} n={i + 1} defaultValue={note?.alts?.[i]} />
        </div>
      ))}
    </>
  );
}

/**
 * New images: without JavaScript the file input posts itself (descriptions one line each); with
 * it, picked files show as previews, each with its description and a Remove button.
 */
export function NewImagesField({
  hydrated,
  disabled,
  room,
  numberedFrom,
  images,
  error,
}: {
  hydrated: boolean;
  disabled: boolean;
  /** How many more images the note can take. */
  room: number;
  /** The number of the first new image (after the kept ones). */
  numberedFrom: number;
  images: ReturnType<typeof usePickedImages>;
  error?: string | null;
}) {
  const { picked } = images;
  return (
    <div className={hydrated ? "images-field" : "field"}>
      {/* With JavaScript the toolbar's image button opens this input; without, it is the field. */}
      <label htmlFor="note-images" className={hydrated ? "sr-only" : undefined}>
        Images (up to {MAX_IMAGES})
      </label>
      <input
        id="note-images"
        type="file"
        name={hydrated ? undefined : "images"}
        className={hydrated ? "sr-only" : undefined}
        tabIndex={hydrated ? -1 : undefined}
        multiple
        accept={ACCEPT}
        disabled={disabled}
        onChange={(e) => {
          images.add(Array.from(e.target.files ?? []).slice(0, room));
          // Until the enhanced form takes over, the input also keeps (and would post) its files.
          if (hydrated) e.target.value = "";
        }}
      />
      {picked.length > 0 && (
        <ul className="previews">
          {picked.map((p, i) => (
            <li key={p.url}>
              <img src={p.url} alt={`${p.file.name} (to upload)`} width={72} height={72} />
              <AltField name="alt_new" n={numberedFrom + i} />
              <button
                type="button"
                className="icon-btn"
                aria-label={`Remove image ${i + 1}`}
                onClick={() => images.remove(p)}
              >
                <Icon name="x" size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {!hydrated && (
        // Without JavaScript the picked files are not known before the post: one line each.
        <div className="alt-field">
          <label htmlFor="note-alts">Describe the new images for people who cannot see them (one line per image)</label>
          <textarea id="note-alts" name="alt_new" rows={2} maxLength={MAX_ALT * MAX_IMAGES} />
        </div>
      )}
      <FieldError error={error} />
    </div>
  );
}

/** Alt text for one image: what a screen reader says instead of the picture. */
function AltField({ name, n, defaultValue }: { name: string; n: number; defaultValue?: string }) {
  const id = useId();
  return (
    <span className="alt-field">
      <label htmlFor={id}>Image {n} description (alt text)</label>
      <input id={id} name={name} defaultValue={defaultValue} maxLength={MAX_ALT} placeholder="What does it show?" />
    </span>
  );
}

/**
 * The note's one video: without JavaScript a field for its link; with it, the toolbar's YouTube
 * button sets it and it shows here as a card that can be removed.
 */
export function VideoField({
  hydrated,
  video,
  setVideo,
  disabled,
  error,
}: {
  hydrated: boolean;
  video: string;
  setVideo: (v: string) => void;
  disabled: boolean;
  error?: string;
}) {
  if (!hydrated)
    return (
      <div className="field">
        <label htmlFor="note-video">YouTube link</label>
        <input
          id="note-video"
          name="video"
          value={video}
          inputMode="url"
          placeholder="https://youtu.be/…"
          onChange={(e) => setVideo(e.target.value)}
          disabled={disabled}
        />
        <FieldError error={error} />
      </div>
    );
  return (
    <>
      <input type="hidden" name="video" value={video} />
      {video && (
        <div className="video-chip">
          <Icon name="square-play" size={20} />
          <span className="chip">{video}</span>
          <button type="button" className="btn small" onClick={() => setVideo("")}>
            Remove video
          </button>
        </div>
      )}
      <FieldError error={error} />
    </>
  );
}
