// Real image files, small enough to write out: uploads are known by their bytes (header sizes read).
const bytes = (b64: string) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));

/** A 3×2 PNG. */
export const PNG = bytes(
  "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGM4oaEBQQxwFgBFdAaR8TH9JAAAAABJRU5ErkJggg==",
);
/** A 5×4 GIF. */
export const GIF = bytes("R0lGODlhBQAEAAAAADs=");
