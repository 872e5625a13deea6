import { Link, useFetcher, useLocation } from "@remix-run/react";
import X from "lucide-react/icons/x";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import {
  MAX_ALT,
  MAX_IMAGES,
  MAX_LABEL,
  MAX_TEXT,
  PRESET_LABELS,
} from "../../../worker/features/notes/notes.constants";
import type { FolderJson } from "../../../worker/features/folders/folders.service";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import { useHydrated, useIsoLayoutEffect } from "~/lib/hydrated";
import { ClientError, write } from "~/lib/client";
import { putImages, scaleImage, type UploadSlot, uploadExt } from "~/lib/images";
import { pageOf } from "~/lib/scroll";
import { textToHtml } from "../../../worker/lib/text";
import { FolderPicker } from "../folders/FolderPicker";
import { Dialog } from "../Dialog";
import { MentionTextarea } from "./Mentions";
import { JsFlag } from "../JsFlag";

export interface ComposerResult {
  ok: boolean;
  message?: string | null;
  fields?: Record<string, string>;
  values?: Record<string, string>;
}

// The editor (and its ProseMirror) loads only when a composer opens with JavaScript on.
const loadEditor = () => import("./RichEditor.client");
type RichEditorType = Awaited<ReturnType<typeof loadEditor>>["default"];

/** What a composer keeps between openings (sessionStorage, per note; "new" for a new one). */
interface Draft {
  text: string;
  html: string;
  label: string;
  custom: string;
}
const draftKey = (note?: NoteJson | null) => `notex:draft:${note?.id ?? "new"}`;
function readDraft(key: string): Draft | null {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}
function writeDraft(key: string, d: Draft | null) {
  try {
    if (d && (d.text.trim() || d.custom || d.label)) sessionStorage.setItem(key, JSON.stringify(d));
    else sessionStorage.removeItem(key);
  } catch {}
}

const ACCEPT =
  "image/png,image/jpeg,image/webp,image/gif,image/tiff,image/bmp,image/heif,.png,.jpg,.jpeg,.webp,.gif,.tiff,.bmp,.heif";

/** The note editor: the same form with or without JavaScript (a plain textarea), for create and edit. */
export function ComposerForm({
  note,
  result,
  folder,
  folders,
}: {
  note?: NoteJson | null;
  result?: ComposerResult;
  folder?: number;
  folders?: FolderJson[];
}) {
  const fetcher = useFetcher<ComposerResult>({ key: "composer" });
  const location = useLocation();
  const r = fetcher.data ?? result;
  const v = r?.values ?? {};
  const initialLabel = v.label ?? note?.label ?? "";
  const isPreset = !initialLabel || PRESET_LABELS.includes(initialLabel);
  const hydrated = useHydrated();
  const [text, setText] = useState(v.text ?? note?.txt ?? "");
  const [html, setHtml] = useState(v.content_html ?? note?.content ?? "");
  const [preset, setPreset] = useState(isPreset ? initialLabel : "");
  const [custom, setCustom] = useState(isPreset ? "" : initialLabel);
  // The editor replaces the textarea once its module is here; until then the textarea keeps typing.
  const [Editor, setEditor] = useState<{ C: RichEditorType } | null>(null);
  const key = draftKey(note);
  const restored = useRef(false);
  const sent = useRef(false);

  // Before the first client render settles: whatever was typed into the server's form while the
  // scripts loaded wins (React would reset controlled fields to their initial state), then a draft
  // this composer kept when it was last closed.
  useIsoLayoutEffect(() => {
    const typed = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value ?? "";
    const draft = r?.values ? null : readDraft(key);
    const t = typed("note-text");
    const c = typed("note-custom-label");
    const l = typed("note-label");
    if (t && t !== text) {
      setText(t);
      setHtml("");
    } else if (draft) {
      setText(draft.text);
      setHtml(draft.html);
    }
    if (c && c !== custom) setCustom(c.toLowerCase().slice(0, MAX_LABEL));
    else if (draft?.custom) setCustom(draft.custom);
    if (l && l !== preset) setPreset(l);
    else if (draft?.label) setPreset(draft.label);
    restored.current = true;
    loadEditor().then((m) => setEditor({ C: m.default }));
  }, []);

  useEffect(() => {
    if (restored.current) writeDraft(key, { text, html, label: preset, custom });
  }, [key, text, html, preset, custom]);

  // A refused save keeps the draft; a composer closed by its own save (the redirect) drops it.
  useEffect(() => {
    if (fetcher.data && !fetcher.data.ok) sent.current = false;
  }, [fetcher.data]);
  useEffect(
    () => () => {
      if (sent.current) writeDraft(key, null);
    },
    [key],
  );
  const [video, setVideo] = useState(v.video ?? (note?.video ? `https://youtu.be/${note.video}` : ""));
  const [kept, setKept] = useState(() => note?.images ?? []);
  // Without JavaScript the file input posts itself; with it, picked files are kept here (with
  // previews), scaled in the browser and PUT to their signed links after the note is saved.
  const [picked, setPicked] = useState<{ file: File; url: string }[]>([]);
  const [uploading, setUploading] = useState<string | null>(null);
  const existing = note?.images ?? [];
  const err = r?.fields ?? {};
  const images = kept.length + picked.length;
  const altError = Object.entries(err).find(([k]) => k.startsWith("alts"))?.[1];
  const busy = fetcher.state !== "idle" || uploading === "busy";

  // Preview URLs are freed when an image is removed and when the composer closes.
  const pickedRef = useRef(picked);
  pickedRef.current = picked;
  useEffect(
    () => () => {
      for (const p of pickedRef.current) URL.revokeObjectURL(p.url);
    },
    [],
  );

  // With JavaScript new images go up first (scaled, to slots reserved for them) and the note is
  // saved with their URLs, so no page ever shows the note before its images exist (issue 21 item
  // 17: the feed under the dialog reloads at once and asked for them too early).
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    if (picked.length) {
      setUploading("busy");
      try {
        const blobs = await Promise.all(picked.map((p) => scaleImage(p.file)));
        const { uploads } = await write<{ uploads: (UploadSlot & { file_url: string })[] }>("POST", "/uploads", {
          uploads: blobs.map((b) => ({ file_size: b.size, file_ext: uploadExt(b.type) })),
        });
        await putImages(uploads, blobs);
        // Each new image's description, now keyed by its URL like a kept image's.
        const alts = form.getAll("alt_new").map(String);
        form.delete("alt_new");
        for (const [i, slot] of uploads.entries()) {
          form.append("imgs", slot.file_url);
          form.set(`alt:${slot.file_url}`, alts[i] ?? "");
        }
      } catch (err) {
        setUploading(
          err instanceof ClientError && err.error.message
            ? err.error.message
            : "Some images could not be uploaded. Please try again.",
        );
        return;
      }
      setUploading(null);
    }
    sent.current = true;
    fetcher.submit(form, { method: "post", action: "/actions/note", encType: "multipart/form-data" });
  };

  return (
    <fetcher.Form
      method="post"
      action="/actions/note"
      encType="multipart/form-data"
      className="composer"
      noValidate
      onSubmit={submit}
    >
      <input type="hidden" name="intent" value="save" />
      {note && <input type="hidden" name="id" value={note.id} />}
      <input
        type="hidden"
        name="redirectTo"
        value={`${location.pathname}${location.search}`.replace(/[?&]dialog=[^&]*/, "")}
      />
      <JsFlag />
      {r?.message && (
        <p className="form-error" role="alert">
          {r.message}
        </p>
      )}
      <div className="field">
        <label htmlFor="note-label">X-label</label>
        <select
          id="note-label"
          name="label"
          value={preset}
          onChange={(e) => setPreset(e.target.value)}
          aria-invalid={err.label ? true : undefined}
        >
          <option value="">Select a x-label</option>
          {PRESET_LABELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
        <label htmlFor="note-custom-label" className="sub">
          or a custom x-label
        </label>
        <input
          id="note-custom-label"
          name="custom_label"
          value={custom}
          maxLength={MAX_LABEL}
          onChange={(e) => setCustom(e.target.value.toLowerCase())}
          aria-describedby="label-count"
        />
        <small id="label-count" className="muted">
          {custom.length}/{MAX_LABEL}
        </small>
        {err.label && (
          <p className="error" role="alert">
            {err.label}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="note-text">Note</label>
        {Editor ? (
          <>
            <input type="hidden" name="text" value={text} />
            <input type="hidden" name="content_html" value={html} />
            <Editor.C
              // Text typed into the textarea before the editor arrived carries over, caret at its end.
              initialHtml={html || textToHtml(text)}
              placeholder="Take a note..."
              invalid={!!(err.content || err.tags)}
              videoDisabled={images > 0}
              onChange={(h, t) => {
                setHtml(h);
                setText(t);
              }}
              onVideo={setVideo}
            />
          </>
        ) : (
          <NoteTextarea
            text={text}
            invalid={!!(err.content || err.tags)}
            onText={(t) => {
              setText(t);
              setHtml("");
            }}
          />
        )}
        <small className="muted">
          {[...text].length}/{MAX_TEXT}
        </small>
        {(err.content || err.tags) && (
          <p className="error" role="alert">
            {err.content ?? err.tags}
          </p>
        )}
      </div>
      {existing.map((src, i) => (
        <div key={src} className="keep-image">
          <label>
            <input
              type="checkbox"
              name="imgs"
              value={src}
              checked={kept.includes(src)}
              onChange={(e) => setKept((k) => (e.target.checked ? [...k, src] : k.filter((x) => x !== src)))}
            />{" "}
            <img src={src} alt={note?.alts?.[i] ?? ""} width={48} height={48} /> keep
          </label>
          <AltField name={`alt:${src}`} n={i + 1} defaultValue={note?.alts?.[i]} />
        </div>
      ))}
      <div className="field">
        <label htmlFor="note-video">YouTube link</label>
        {hydrated ? (
          <div className="row">
            <input type="hidden" name="video" value={video} />
            {video ? (
              <>
                <span className="chip">{video}</span>
                <button type="button" className="btn" onClick={() => setVideo("")}>
                  Remove video
                </button>
              </>
            ) : (
              <span className="muted" id="note-video">
                Use the YouTube button above.
              </span>
            )}
          </div>
        ) : (
          <input
            id="note-video"
            name="video"
            value={video}
            onChange={(e) => setVideo(e.target.value)}
            disabled={images > 0}
          />
        )}
        {err.video && (
          <p className="error" role="alert">
            {err.video}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="note-images">Images (up to {MAX_IMAGES})</label>
        <input
          id="note-images"
          type="file"
          name={hydrated ? undefined : "images"}
          multiple
          accept={ACCEPT}
          disabled={!!video.trim() || images >= MAX_IMAGES}
          onChange={(e) => {
            const list = Array.from(e.target.files ?? []);
            const room = MAX_IMAGES - kept.length - picked.length;
            setPicked((p) => [...p, ...list.slice(0, room).map((file) => ({ file, url: URL.createObjectURL(file) }))]);
            // Until the enhanced form takes over, the input also keeps (and would post) its files.
            if (hydrated) e.target.value = "";
          }}
        />
        {picked.length > 0 && (
          <ul className="previews">
            {picked.map((p, i) => (
              <li key={p.url}>
                <img src={p.url} alt={`${p.file.name} (to upload)`} width={72} height={72} />
                <AltField name="alt_new" n={existing.length + i + 1} />
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={`Remove image ${i + 1}`}
                  onClick={() => {
                    URL.revokeObjectURL(p.url);
                    setPicked((all) => all.filter((x) => x !== p));
                  }}
                >
                  <X size={16} />
                </button>
              </li>
            ))}
          </ul>
        )}
        {!hydrated && (
          // Without JavaScript the picked files are not known before the post: one line each.
          <div className="alt-field">
            <label htmlFor="note-alts">
              Describe the new images for people who cannot see them (one line per image)
            </label>
            <textarea id="note-alts" name="alt_new" rows={2} maxLength={MAX_ALT * MAX_IMAGES} />
          </div>
        )}
        {(err.imgs || err.uploads || altError || (uploading && uploading !== "busy")) && (
          <p className="error" role="alert">
            {err.imgs ?? err.uploads ?? altError ?? uploading}
          </p>
        )}
      </div>
      <FolderPicker selected={note?.folders.map((f) => f.id) ?? (folder ? [folder] : [])} folders={folders} />
      {err.folders && (
        <p className="error" role="alert">
          {err.folders}
        </p>
      )}
      <div className="row">
        <button
          className="btn primary"
          type="submit"
          disabled={busy || (fetcher.state === "idle" && typeof window !== "undefined" && !text.trim())}
        >
          {uploading === "busy" ? "Uploading…" : busy ? "Saving…" : "Save"}
        </button>
      </div>
      <Link to={pageOf(location)} className="sr-only">
        Cancel
      </Link>
    </fetcher.Form>
  );
}

/**
 * The note's textarea: without JavaScript the whole editor; with it, what the form shows until the
 * rich editor has loaded, suggesting people to @mention like the editor does.
 */
function NoteTextarea({ text, invalid, onText }: { text: string; invalid: boolean; onText: (t: string) => void }) {
  return (
    <MentionTextarea
      id="note-text"
      name="text"
      rows={6}
      placeholder="Take a note..."
      value={text}
      onText={onText}
      aria-invalid={invalid ? true : undefined}
      data-autofocus
    />
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

export function ComposerDialog({
  note,
  folder,
  folders,
}: {
  note?: NoteJson | null;
  folder?: number;
  folders?: FolderJson[];
}) {
  return (
    <Dialog title={note ? "Edit note" : "Take a note"}>
      <ComposerForm note={note} folder={folder} folders={folders} />
    </Dialog>
  );
}
