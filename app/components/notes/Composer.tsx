import { Link, useFetcher, useLocation } from "@remix-run/react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { MAX_IMAGES, MAX_LABEL, MAX_TEXT, PRESET_LABELS } from "../../../worker/features/notes/notes.constants";
import type { FolderJson } from "../../../worker/features/folders/folders.service";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import { useHydrated, useIsoLayoutEffect } from "~/lib/hydrated";
import { pageOf } from "~/lib/scroll";
import { textToHtml } from "../../../worker/lib/text";
import { FolderPicker } from "../folders/FolderPicker";
import { Dialog } from "../Dialog";
import { MentionTextarea } from "./Mentions";
import { JsFlag } from "../JsFlag";
import { DEFAULT_LABEL, draftKey, lastLabel, readDraft, rememberLabel, writeDraft } from "./ComposerDraft";
import { KeptImages, NewImagesField, uploadPicked, usePickedImages, VideoField } from "./ComposerImages";
import { LabelChip } from "./LabelChip";
import { FieldError } from "../Field";

export interface ComposerResult {
  ok: boolean;
  message?: string | null;
  fields?: Record<string, string>;
  values?: Record<string, string>;
}

// The editor (and its ProseMirror) loads only when a composer opens with JavaScript on.
const loadEditor = () => import("./RichEditor.client");
type RichEditorType = Awaited<ReturnType<typeof loadEditor>>["default"];

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
  // A new note starts under "note" (with JavaScript, the x-label used last): the text comes first.
  const initialLabel = v.label ?? note?.label ?? DEFAULT_LABEL;
  const isPreset = !initialLabel || PRESET_LABELS.includes(initialLabel);
  const hydrated = useHydrated();
  const [text, setText] = useState(v.text ?? note?.txt ?? "");
  const [html, setHtml] = useState(v.content_html ?? note?.content ?? "");
  const [preset, setPreset] = useState(isPreset ? initialLabel : DEFAULT_LABEL);
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
    const last = note || r?.values || draft ? null : lastLabel();
    if (l && l !== preset) setPreset(l);
    else if (draft?.label) setPreset(draft.label);
    else if (last && PRESET_LABELS.includes(last)) setPreset(last);
    else if (last && !c) setCustom(last);
    restored.current = true;
    loadEditor().then((m) => setEditor({ C: m.default }));
  }, []);

  useEffect(() => {
    if (restored.current) writeDraft(key, { text, html, label: preset, custom });
  }, [key, text, html, preset, custom]);

  // A sent draft is dropped when it is sent (below): the save's redirect may leave the page before
  // this composer unmounts. A refused save writes it back.
  useEffect(() => {
    if (fetcher.data && !fetcher.data.ok) {
      sent.current = false;
      writeDraft(key, { text, html, label: preset, custom });
    }
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
  // previews), scaled in the browser and PUT to their signed links before the note is saved.
  const newImages = usePickedImages();
  const { picked } = newImages;
  const [uploading, setUploading] = useState<string | null>(null);
  const err = r?.fields ?? {};
  const images = kept.length + picked.length;
  const altError = Object.entries(err).find(([k]) => k.startsWith("alts"))?.[1];
  const busy = fetcher.state !== "idle" || uploading === "busy";
  const imagesDisabled = !!video.trim() || images >= MAX_IMAGES;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    if (picked.length) {
      setUploading("busy");
      const failed = await uploadPicked(picked, form);
      setUploading(failed);
      if (failed) return;
    }
    sent.current = true;
    writeDraft(key, null);
    rememberLabel(custom.trim() || preset);
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
      <div className="composer-body">
        <div className="field composer-text">
          <label htmlFor="note-text" className="sr-only">
            Note
          </label>
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
                imagesDisabled={imagesDisabled}
                onImages={() => document.getElementById("note-images")?.click()}
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
          <FieldError error={err.content || err.tags} />
        </div>
        <KeptImages
          note={note}
          kept={kept}
          onKeep={(src, keep) => setKept((k) => (keep ? [...k, src] : k.filter((x) => x !== src)))}
        />
        <NewImagesField
          hydrated={hydrated}
          disabled={imagesDisabled}
          room={MAX_IMAGES - images}
          numberedFrom={(note?.images.length ?? 0) + 1}
          images={newImages}
          error={err.imgs || err.uploads || altError || (uploading !== "busy" ? uploading : null)}
        />
        <VideoField hydrated={hydrated} video={video} setVideo={setVideo} disabled={images > 0} error={err.video} />
        <p className="hint composer-rule">
          <span>Up to {MAX_IMAGES} images, or one video.</span>
          <small className="count">
            {[...text].length}/{MAX_TEXT}
          </small>
        </p>
        <FolderPicker selected={note?.folders.map((f) => f.id) ?? (folder ? [folder] : [])} folders={folders} />
        <FieldError error={err.folders} />
      </div>
      <div className="composer-foot">
        <LabelChip preset={preset} setPreset={setPreset} custom={custom} setCustom={setCustom} invalid={!!err.label} />
        <button
          className="btn primary"
          type="submit"
          disabled={busy || (fetcher.state === "idle" && typeof window !== "undefined" && !text.trim())}
        >
          {uploading === "busy" ? "Uploading…" : busy ? "Saving…" : "Save"}
        </button>
        <FieldError error={err.label} />
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

export function ComposerDialog({
  note,
  folder,
  folders,
  refused,
}: {
  note?: NoteJson | null;
  folder?: number;
  folders?: FolderJson[];
  refused?: boolean;
}) {
  if (refused)
    return (
      <Dialog title="Edit note">
        <p>This note is not yours to edit, or it is no longer there.</p>
      </Dialog>
    );
  return (
    <Dialog title={note ? "Edit note" : "Take a note"} full>
      <ComposerForm note={note} folder={folder} folders={folders} />
    </Dialog>
  );
}
