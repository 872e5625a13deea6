// Cropping a new avatar or cover before it goes up: the picture moves under a fixed frame (a
// circle for the avatar, a 3:1 band for the cover, as Mastodon, Bluesky and LinkedIn show them),
// dragged or moved with the arrow keys, zoomed with the slider, + and −, the wheel or a pinch.
// Loaded only when a picture is chosen (ImagePicker), so no first load carries it, nor the worker.
import { type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from "react";
import Cropper from "react-easy-crop";
import { type Area, cropPicture, PICTURE, type PictureKind } from "~/lib/crop";

const MAX_ZOOM = 4;
const ZOOM_STEP = 0.1;

const clampZoom = (z: number) => Math.min(MAX_ZOOM, Math.max(1, Math.round(z * 100) / 100));

export function CropDialog({
  file,
  kind,
  label,
  onDone,
  onCancel,
}: {
  file: File;
  kind: PictureKind;
  label: string;
  onDone: (cropped: File) => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // The library hands over its frame's ref once; the frame itself appears when the picture loads.
  const frame = useRef<RefObject<HTMLDivElement> | null>(null);
  const titleId = useId();
  const hintId = useId();
  const [url] = useState(() => URL.createObjectURL(file));
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  // A modal <dialog>: the browser keeps focus inside, puts it above the Edit Profile dialog and
  // gives Escape (its cancel event).
  // The cropper measures the picture as it mounts: only once the dialog is open and laid out
  // (closed, it measures 0 and places nothing).
  const [shown, setShown] = useState(false);
  useEffect(() => {
    ref.current?.showModal();
    setShown(true);
    return () => URL.revokeObjectURL(url);
  }, [url]);

  // The frame takes focus once it is there (it appears with the picture's first crop), so the
  // arrow keys work at once.
  const focused = useRef(false);
  useEffect(() => {
    const el = frame.current?.current;
    if (!area || !el || focused.current) return;
    focused.current = true;
    el.focus();
  }, [area]);

  const apply = async () => {
    if (!area) return;
    setBusy(true);
    try {
      const bitmap = await createImageBitmap(file);
      const cropped = await cropPicture(bitmap, area, kind);
      bitmap.close();
      onDone(cropped);
    } catch {
      setBusy(false);
      setFailed(true);
    }
  };

  // + and − zoom from anywhere in the dialog; the keys stay here, so the Edit Profile dialog
  // underneath does not take Escape or Tab as its own.
  const onKeyDown = (e: KeyboardEvent) => {
    e.stopPropagation();
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === "+" || e.key === "=") setZoom((z) => clampZoom(z + ZOOM_STEP));
    else if (e.key === "-" || e.key === "_") setZoom((z) => clampZoom(z - ZOOM_STEP));
  };

  return (
    <dialog
      ref={ref}
      className={`crop-dialog crop-${kind}`}
      aria-labelledby={titleId}
      aria-describedby={hintId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      onKeyDown={onKeyDown}
    >
      <h2 id={titleId}>Crop your {label.toLowerCase()}</h2>
      <p id={hintId} className="hint">
        Drag the picture or use the arrow keys to place it; zoom with the slider or + and −.
      </p>
      <div className="crop-stage">
        {shown && (
          <Cropper
            image={url}
            crop={crop}
            zoom={zoom}
            maxZoom={MAX_ZOOM}
            aspect={PICTURE[kind].aspect}
            cropShape={kind === "avatar" ? "round" : "rect"}
            showGrid={false}
            onCropChange={setCrop}
            onZoomChange={(z) => setZoom(clampZoom(z))}
            onCropComplete={(_, pixels) => setArea(pixels)}
            // The frame takes the arrow keys itself: an application region, named and explained.
            cropperProps={{
              role: "application",
              "aria-label": `${label} crop frame`,
              "aria-describedby": hintId,
            }}
            setCropperRef={(r) => {
              frame.current = r;
            }}
          />
        )}
      </div>
      <label className="crop-zoom">
        <span>Zoom</span>
        <input
          type="range"
          min={1}
          max={MAX_ZOOM}
          step={ZOOM_STEP}
          value={zoom}
          onChange={(e) => setZoom(clampZoom(Number(e.currentTarget.value)))}
        />
      </label>
      {failed && (
        <p className="error" role="alert">
          This picture could not be cropped. Please choose another.
        </p>
      )}
      <div className="row">
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn primary" onClick={apply} disabled={!area || busy}>
          Apply
        </button>
      </div>
    </dialog>
  );
}
