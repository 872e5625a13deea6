// Archives people upload are read only after their central directory passes: a size cap on the
// upload, a cap on entries, on each entry's and the total declared size, on the compression ratio
// (zip bombs), and names that could climb out of a folder are refused. Only the entries asked for
// are inflated, and what inflates is measured again (a declared size can lie).
import { unzipSync } from "fflate";
import { AppError } from "../../lib/errors";

export interface ZipLimits {
  upload: number;
  entries: number;
  entry: number;
  total: number;
  ratio: number;
}

export const CSV_ZIP: ZipLimits = { upload: 10 << 20, entries: 5000, entry: 8 << 20, total: 32 << 20, ratio: 200 };

const bad = (message: string, status: 413 | 422 = 422) => new AppError(status, "bad_archive", message);

/** An entry name that stays inside the archive's folder: no absolute path, no "..", no backslash or NUL. */
export const safeName = (name: string) =>
  !/^[/\\]|^[a-z]:/i.test(name) && !name.split(/[/\\]/).includes("..") && !/[\\\0]/.test(name);

/** The base name of an entry, lower-cased (LinkedIn's export may sit in a folder). */
export const baseName = (name: string) => (name.split("/").pop() ?? "").toLowerCase();

/** The entries `want` picks, inflated, after every check; a 4xx with the reason otherwise. */
export function readZip(bytes: Uint8Array, want: (name: string) => boolean, limits = CSV_ZIP) {
  if (bytes.length > limits.upload) throw bad(`The file is too large (at most ${limits.upload >> 20} MB).`, 413);
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) throw bad("The file is not a zip archive.");
  let entries = 0;
  let total = 0;
  let problem: AppError | null = null;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        entries++;
        if (problem) return false;
        if (entries > limits.entries) problem = bad(`The archive has more than ${limits.entries} files.`);
        else if (!safeName(f.name))
          problem = bad(`The archive has an entry with an unsafe name: ${f.name.slice(0, 80)}`);
        else if (!want(f.name)) return false;
        else if (f.originalSize > limits.entry) problem = bad(`${baseName(f.name)} is too large once unpacked.`, 413);
        else if (f.originalSize > 1 << 20 && f.originalSize / Math.max(f.size, 1) > limits.ratio)
          problem = bad(`${baseName(f.name)} unpacks to far more than it weighs: refused as a zip bomb.`, 413);
        else {
          total += f.originalSize;
          if (total > limits.total) problem = bad("The archive is too large once unpacked.", 413);
        }
        return !problem;
      },
    });
  } catch {
    throw problem ?? bad("The zip archive is damaged and cannot be read.");
  }
  if (problem) throw problem;
  // A declared size can lie: what came out is measured too.
  let actual = 0;
  for (const [name, data] of Object.entries(files)) {
    actual += data.length;
    if (data.length > limits.entry || actual > limits.total)
      throw bad(`${baseName(name)} is larger once unpacked than the archive says.`, 413);
  }
  return files;
}
