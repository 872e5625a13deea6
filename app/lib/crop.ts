// Profile pictures are cropped in the browser to the shape every page shows them in, and scaled
// there too, so what goes up is what people see (as Mastodon stores a 400 × 400 avatar and a
// 3:1 header). Sizes keep spec 5's rule for images: the longest side at most MAX_SIDE, JPEG 0.7.
import { JPEG_QUALITY, MAX_SIDE } from "./images";

export type PictureKind = "avatar" | "cover";

/** The shape each picture is cropped to and the size it is stored at (never enlarged). */
export const PICTURE: Record<PictureKind, { aspect: number; width: number; height: number }> = {
  avatar: { aspect: 1, width: 400, height: 400 },
  cover: { aspect: 3, width: MAX_SIDE, height: Math.round(MAX_SIDE / 3) },
};

/** A rectangle of the picture's own pixels. */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The stored size of `area` cropped for `kind`: its target, or the area itself when smaller. */
export function croppedSize(kind: PictureKind, area: Area) {
  // The frame keeps the aspect, so the width alone says the scale.
  const scale = Math.min(1, PICTURE[kind].width / area.width);
  return { width: Math.max(1, Math.round(area.width * scale)), height: Math.max(1, Math.round(area.height * scale)) };
}

/** `area` of `image`, drawn at its stored size, as a JPEG file named for the field it goes up in. */
export async function cropPicture(image: CanvasImageSource, area: Area, kind: PictureKind): Promise<File> {
  const size = croppedSize(kind, area);
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no canvas");
  // A transparent picture gets a white ground: JPEG has no alpha and would turn it black.
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, size.width, size.height);
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, size.width, size.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", JPEG_QUALITY));
  if (!blob) throw new Error("no picture");
  return new File([blob], `${kind}.jpg`, { type: "image/jpeg" });
}
