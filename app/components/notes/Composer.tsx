import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useState } from "react";
import { MAX_LABEL, MAX_TEXT, PRESET_LABELS } from "../../../worker/features/notes/notes.schema";
import type { FolderJson } from "../../../worker/features/folders/folders.service";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import { withParam } from "~/lib/url";
import { FolderPicker } from "../folders/FolderPicker";
import { Dialog } from "../Dialog";
import { JsFlag } from "../JsFlag";

export interface ComposerResult {
  ok: boolean;
  message?: string | null;
  fields?: Record<string, string>;
  values?: Record<string, string>;
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
  const [text, setText] = useState(v.text ?? note?.txt ?? "");
  const [custom, setCustom] = useState(isPreset ? "" : initialLabel);
  const [video, setVideo] = useState(v.video ?? (note?.video ? `https://youtu.be/${note.video}` : ""));
  const [files, setFiles] = useState(0);
  const existing = (note?.imgs ?? "").split(";").filter(Boolean);
  const err = r?.fields ?? {};
  const busy = fetcher.state !== "idle";

  return (
    <fetcher.Form method="post" action="/actions/note" encType="multipart/form-data" className="composer" noValidate>
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
          defaultValue={isPreset ? initialLabel : ""}
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
        <textarea
          id="note-text"
          name="text"
          rows={6}
          placeholder="Take a note..."
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={err.content || err.tags ? true : undefined}
        />
        <small className="muted">
          {[...text].length}/{MAX_TEXT}
        </small>
        {(err.content || err.tags) && (
          <p className="error" role="alert">
            {err.content ?? err.tags}
          </p>
        )}
      </div>
      {existing.map((src) => (
        <label key={src} className="keep-image">
          <input type="checkbox" name="imgs" value={src} defaultChecked />{" "}
          <img src={src} alt="" width={48} height={48} /> keep
        </label>
      ))}
      <div className="field">
        <label htmlFor="note-video">YouTube link</label>
        <input
          id="note-video"
          name="video"
          value={video}
          onChange={(e) => setVideo(e.target.value)}
          disabled={files > 0}
        />
        {err.video && (
          <p className="error" role="alert">
            {err.video}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="note-images">Images (up to 10)</label>
        <input
          id="note-images"
          type="file"
          name="images"
          multiple
          accept={ACCEPT}
          disabled={!!video.trim()}
          onChange={(e) => setFiles(e.target.files?.length ?? 0)}
        />
        {(err.imgs || err.uploads) && (
          <p className="error" role="alert">
            {err.imgs ?? err.uploads}
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
          {busy ? "Saving…" : "Save"}
        </button>
      </div>
      <Link to={withParam(location, "dialog", null)} className="sr-only">
        Cancel
      </Link>
    </fetcher.Form>
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
