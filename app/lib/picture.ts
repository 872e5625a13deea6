// How a note's picture holds its place before it loads: its natural size as the img's width and
// height (and as CSS variables the note's own page sizes the box by), and its blurhash painted
// behind it as a tiny image the browser blurs by scaling up (no script: it is in the server's HTML).
import { blurhashToImageCssObject } from "@unpic/placeholder";
import type { CSSProperties } from "react";
import type { NoteJson } from "../../worker/features/notes/notes.types";

/** The box a list's square tile keeps for a picture whose size is not known. */
const TILE = 480;

export function pictureBox(dims: NoteJson["dims"][number]) {
  if (!dims) return { width: TILE, height: TILE };
  const style = {
    "--w": `${dims.width}px`,
    "--ar": `${dims.width} / ${dims.height}`,
    "--ratio": dims.width / dims.height,
    ...(dims.blurhash ? blurhashToImageCssObject(dims.blurhash) : {}),
  } as CSSProperties;
  return { width: dims.width, height: dims.height, style, className: "sized" };
}
