/**
 * A body read whole, or null once it passes `max` bytes (counted as it streams: a Content-Length
 * may be absent or wrong, and a declared one over the cap is refused before reading).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  declared: string | null,
  max: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (Number(declared ?? 0) > max) return null;
  const reader = body?.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
