import { type ChangeEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import type { PictureKind } from "~/lib/crop";

const loadCrop = () => import("./CropDialog.client");
const CropDialog = lazy(() => loadCrop().then((m) => ({ default: m.CropDialog })));

/** Pictures the browser can redraw; a GIF goes up untouched (a redraw would stop its animation). */
const croppable = (f: File) => /^image\//.test(f.type) && f.type !== "image/gif";

/**
 * A profile picture's file field, with the picture it would replace beside it. With JavaScript a
 * chosen picture opens the crop dialog, and the field then holds the cropped, scaled JPEG, which
 * the form sends up through the same signed upload as ever; without JavaScript the chosen file is
 * sent as it is and the server keeps it whole.
 */
export function ImagePicker({
  name,
  label,
  current,
  shape,
}: {
  name: PictureKind;
  label: string;
  current: string;
  shape: "square" | "wide";
}) {
  const input = useRef<HTMLInputElement>(null);
  // The picture being cropped, the original of the one in the field (to crop again), and that one.
  const [cropping, setCropping] = useState<File | null>(null);
  const [original, setOriginal] = useState<File | null>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  /** Puts `file` in the field (or empties it) and shows it. */
  const hold = (file: File | null) => {
    const el = input.current;
    if (!el) return;
    const files = new DataTransfer();
    if (file) files.items.add(file);
    el.files = files.files;
    setChosen(file);
    setPreview(file ? URL.createObjectURL(file) : null);
  };

  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.currentTarget.files?.[0];
    if (!file) return hold(chosen);
    if (croppable(file)) return setCropping(file);
    setOriginal(null);
    setChosen(file);
    setPreview(URL.createObjectURL(file));
  };

  return (
    <div className={`field image-picker ${shape}`}>
      <label htmlFor={name}>{label}</label>
      <div className="image-picker-row">
        {preview || current ? (
          <img className="image-picker-now" src={preview ?? current} alt="" />
        ) : (
          <span className="image-picker-now" />
        )}
        <input
          ref={input}
          id={name}
          type="file"
          name={name}
          accept="image/*"
          onChange={onChange}
          // The dialog's code starts loading as soon as the field is reached.
          onFocus={() => void loadCrop()}
          onPointerEnter={() => void loadCrop()}
        />
        {original && (
          <button type="button" className="btn small" onClick={() => setCropping(original)}>
            Crop again
          </button>
        )}
      </div>
      <p className="hint image-picker-status" role="status">
        {chosen ? `New ${label.toLowerCase()} ready: it is saved with Save.` : ""}
      </p>
      {cropping && (
        <Suspense fallback={null}>
          <CropDialog
            file={cropping}
            kind={name}
            label={label}
            onDone={(cropped) => {
              setOriginal(cropping);
              setCropping(null);
              hold(cropped);
            }}
            onCancel={() => {
              // The field goes back to what it held before this choice.
              setCropping(null);
              hold(chosen);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
