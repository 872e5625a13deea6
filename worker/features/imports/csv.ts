// CSV as exports write it: UTF-8 with or without a BOM, UTF-16 (with its BOM), or Windows-1252 from
// a spreadsheet's "Save as CSV"; comma, semicolon or tab between fields; quoted fields with
// doubled quotes and line breaks inside (RFC 4180).

/** The text of a CSV file, its encoding told by its BOM, else UTF-8 if it is valid, else Windows-1252. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder("utf-8").decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  const utf8 = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  // Replacement characters mean the bytes were not UTF-8: a legacy code page, read as Windows-1252.
  return utf8.includes("\uFFFD") ? new TextDecoder("windows-1252").decode(bytes) : utf8;
}

/** The delimiter of the header line: whichever of , ; tab occurs most outside quotes. */
function delimiterOf(text: string): string {
  const line = text.slice(0, text.search(/\r?\n|$/)).replace(/"[^"]*"/g, "");
  const counts = [",", ";", "\t"].map((d) => [d, line.split(d).length - 1] as const);
  return counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

/** Rows of fields. */
export function parseCsv(text: string): string[][] {
  const d = delimiterOf(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === d) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ""));
}

/** Rows as records keyed by their header's names (lower case, trimmed). */
export function csvRecords(bytes: Uint8Array): { header: string[]; records: Record<string, string>[] } {
  const [head = [], ...rows] = parseCsv(decodeText(bytes));
  const header = head.map((h) => h.trim().toLowerCase());
  return {
    header,
    records: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, (r[i] ?? "").trim()]))),
  };
}
