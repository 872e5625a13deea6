// The export's zip, written while it is read: fflate's streaming Zip behind a writer that sends
// what it has gathered and waits while the reader is behind.
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from "fflate";

/**
 * Writes to the zip. fflate hands over many small pieces (headers, each file); they are gathered
 * and sent in one chunk per drain(), which also waits while the reader is behind (bounded memory).
 */
export class ZipWriter {
  private readonly zip: Zip;
  private pieces: Uint8Array[] = [];
  private failed: Error | null = null;
  private ended = false;
  constructor(
    private readonly writer: WritableStreamDefaultWriter<Uint8Array>,
    /** Rows a jsonArray page reads: a shorter page is the last. */
    private readonly pageSize: number,
  ) {
    this.zip = new Zip((err, chunk, final) => {
      if (err) this.failed = err;
      else this.pieces.push(chunk);
      if (final) this.ended = true;
    });
  }
  /** Sends what is gathered as one chunk, then waits until the reader has room for more. */
  async drain() {
    if (this.failed) throw this.failed;
    if (this.pieces.length) {
      const size = this.pieces.reduce((n, p) => n + p.length, 0);
      const out = new Uint8Array(size);
      let at = 0;
      for (const p of this.pieces) {
        out.set(p, at);
        at += p.length;
      }
      this.pieces = [];
      await this.writer.write(out);
    }
    if (this.ended) await this.writer.close();
    else await this.writer.ready;
  }
  /** Small files (a note is at most a few KB) are stored: a deflate state per file costs more than it saves. */
  storedFile(name: string, text: string) {
    const f = new ZipPassThrough(name);
    this.zip.add(f);
    f.push(strToU8(text), true);
  }
  textFile(name: string, text: string) {
    const f = new ZipDeflate(name, { level: 6 });
    this.zip.add(f);
    f.push(strToU8(text), true);
  }
  /** A JSON array written a page at a time. */
  async jsonArray<T>(name: string, pageOf: (after: T | null) => Promise<T[]>, row: (r: T) => unknown) {
    const f = new ZipDeflate(name, { level: 6 });
    this.zip.add(f);
    f.push(strToU8("["));
    let after: T | null = null;
    let first = true;
    for (;;) {
      const rows = await pageOf(after);
      if (rows.length) {
        const text = rows.map((r, i) => `${first && i === 0 ? "" : ","}\n  ${JSON.stringify(row(r))}`).join("");
        first = false;
        f.push(strToU8(text));
        await this.drain();
      }
      if (rows.length < this.pageSize) break;
      after = rows[rows.length - 1];
    }
    f.push(strToU8("\n]\n"), true);
  }
  /** A file piped from a stream as it arrives (an image from R2: already compressed, so stored). */
  async streamedFile(name: string, body: ReadableStream<Uint8Array>) {
    const f = new ZipPassThrough(name);
    this.zip.add(f);
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      f.push(value);
      await this.drain();
    }
    f.push(new Uint8Array(0), true);
  }
  /** Ends the zip (its central directory) and sends the rest. */
  async end() {
    this.zip.end();
    await this.drain();
  }
}
