// A zip read the way a large upload must be: from its end. The central directory (the zip's own
// table of contents) is read with ranged reads and judged before a single byte is inflated: the
// number of entries, names that could climb out of a folder, declared sizes, the compression
// ratio, and entries that share bytes (the overlapping-entry bomb, where thousands of names point
// at one block). Then only the entries a caller picks are read, each by its own range, and what
// inflates is measured again, since a declared size can lie.
import { Inflate } from "fflate";
import { AppError } from "../../../lib/errors";
import { safeName } from "../zip";

/** Reads `length` bytes at `offset` of the archive (an R2 ranged get, or a slice in tests). */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  size: number;
  originalSize: number;
  /** Where the entry's local header starts. */
  offset: number;
}

export interface DirLimits {
  upload: number;
  entries: number;
  /** The whole archive's declared unpacked size. */
  total: number;
  /** An entry packed at more than this ratio (and over 1 MB unpacked) is refused as a bomb. */
  ratio: number;
}

const bad = (message: string, status: 413 | 422 = 422) => new AppError(status, "bad_archive", message);
const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 65_535;
const SLICE = 16_384;

/** The end-of-directory record: where the directory is and how many entries it says it has. */
async function endRecord(read: ReadAt, size: number) {
  const tailLength = Math.min(size, 22 + MAX_COMMENT);
  const tail = await read(size - tailLength, tailLength);
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) !== EOCD) continue;
    const count = u16(tail, i + 10);
    const dirSize = u32(tail, i + 12);
    const dirOffset = u32(tail, i + 16);
    if (count === 0xffff || dirOffset === 0xffffffff)
      throw bad("The archive uses ZIP64 (over 4 GB), which is larger than an import can take.", 413);
    return { count, dirSize, dirOffset };
  }
  throw bad("The file is not a zip archive, or it is damaged.");
}

/** Every entry the central directory lists, after every check; a 4xx with the reason otherwise. */
export async function readDirectory(read: ReadAt, size: number, limits: DirLimits): Promise<ZipEntry[]> {
  if (size > limits.upload) throw bad(`The file is too large (at most ${limits.upload >> 20} MB).`, 413);
  if (size < 22) throw bad("The file is not a zip archive.");
  const head = await read(0, 4);
  if (u32(head, 0) !== LOCAL && u32(head, 0) !== EOCD) throw bad("The file is not a zip archive.");
  const { count, dirSize, dirOffset } = await endRecord(read, size);
  if (count > limits.entries) throw bad(`The archive has more than ${limits.entries} files.`, 413);
  if (dirOffset + dirSize > size) throw bad("The zip archive is damaged and cannot be read.");
  const dir = await read(dirOffset, dirSize);
  const names = new TextDecoder("utf-8");
  const entries: ZipEntry[] = [];
  let total = 0;
  for (let at = 0; entries.length < count; ) {
    if (at + 46 > dir.length || u32(dir, at) !== CENTRAL) throw bad("The zip archive is damaged and cannot be read.");
    const flags = u16(dir, at + 8);
    const entry: ZipEntry = {
      method: u16(dir, at + 10),
      size: u32(dir, at + 20),
      originalSize: u32(dir, at + 24),
      offset: u32(dir, at + 42),
      name: names.decode(dir.subarray(at + 46, at + 46 + u16(dir, at + 28))),
    };
    at += 46 + u16(dir, at + 28) + u16(dir, at + 30) + u16(dir, at + 32);
    if (!safeName(entry.name)) throw bad(`The archive has an entry with an unsafe name: ${entry.name.slice(0, 80)}`);
    if (flags & 1) throw bad(`${entry.name.slice(0, 80)} is encrypted: export the archive again without a password.`);
    if (entry.originalSize > 1 << 20 && entry.originalSize / Math.max(entry.size, 1) > limits.ratio)
      throw bad(`${entry.name.slice(0, 80)} unpacks to far more than it weighs: refused as a zip bomb.`, 413);
    total += entry.originalSize;
    if (total > limits.total) throw bad("The archive is too large once unpacked.", 413);
    if (entry.offset + entry.size > dirOffset) throw bad("The zip archive is damaged and cannot be read.");
    entries.push(entry);
  }
  // Entries that share bytes are the overlapping-entry bomb: each one's data must end before the next begins.
  const byOffset = [...entries].sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < byOffset.length; i++) {
    const prev = byOffset[i - 1];
    if (prev.offset + 30 + prev.size > byOffset[i].offset)
      throw bad("The archive's entries overlap: refused as a zip bomb.", 413);
  }
  return entries;
}

/** An entry's bytes, unpacked and measured: at most `cap` bytes however much its header declares. */
export async function readEntry(read: ReadAt, entry: ZipEntry, cap: number): Promise<Uint8Array> {
  if (entry.originalSize > cap) throw bad(`${entry.name.slice(0, 80)} is too large once unpacked.`, 413);
  const local = await read(entry.offset, 30);
  if (u32(local, 0) !== LOCAL) throw bad("The zip archive is damaged and cannot be read.");
  const start = entry.offset + 30 + u16(local, 26) + u16(local, 28);
  const packed = entry.size ? await read(start, entry.size) : new Uint8Array(0);
  if (entry.method === 0) return packed;
  if (entry.method !== 8) throw bad(`${entry.name.slice(0, 80)} is packed in a way an import cannot read.`);
  const parts: Uint8Array[] = [];
  let length = 0;
  const inflate = new Inflate((chunk) => {
    length += chunk.length;
    if (length > cap) throw bad(`${entry.name.slice(0, 80)} is larger once unpacked than the archive says.`, 413);
    parts.push(chunk);
  });
  try {
    // Pushed in small slices: deflate packs at most ~1:1032, so no slice can inflate past ~16 MB
    // before the count above refuses it.
    for (let i = 0; i < packed.length || i === 0; i += SLICE)
      inflate.push(packed.subarray(i, i + SLICE), i + SLICE >= packed.length);
  } catch (e) {
    throw e instanceof AppError ? e : bad(`${entry.name.slice(0, 80)} is damaged and cannot be read.`);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
