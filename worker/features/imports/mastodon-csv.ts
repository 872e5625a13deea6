// The CSV files of Mastodon's Settings → Import and export → Data export, checked whole before
// anything is written: following_accounts.csv ("Account address,Show boosts,Notify on new
// posts,Languages"), muted_accounts.csv ("Account address,Hide notifications"), and the headerless
// one-per-line blocked_accounts.csv, blocked_domains.csv and bookmarks.csv (Mastodon reads the
// two account files without a header too). BOMs, other encodings and ; or tab delimiters are read
// as csv.ts reads them; a duplicate row is listed and left out; a file of the wrong kind, a file
// with no usable row, or one over the limits is refused with why.
import { AppError } from "../../lib/errors";
import { decodeText, parseCsv } from "./csv";
import { MAX_ROWS } from "./jobs";

export const MASTODON_KINDS = ["following", "blocks", "mutes", "domain_blocks", "bookmarks"] as const;
export type MastodonKind = (typeof MASTODON_KINDS)[number];

/** The largest CSV taken (Mastodon's exports of 20,000 follows weigh about 1 MB). */
export const MAX_CSV_BYTES = 2 << 20;

/** A row as the job keeps it: the address, domain or URL, and the flags its file gives. */
export interface CsvRow {
  item: string;
  /** Its line in the file, which names it in the job's failures. */
  line: number;
  boosts?: boolean;
  notify?: boolean;
  hide?: boolean;
}

const ADDRESS = /^@?([a-z0-9_][a-z0-9_.-]*)@([a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d{1,5})?)$/i;
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;

const WHAT: Record<MastodonKind, { file: string; item: string; check(s: string): string | null }> = {
  following: { file: "following_accounts.csv", item: "account addresses", check: address },
  blocks: { file: "blocked_accounts.csv", item: "account addresses", check: address },
  mutes: { file: "muted_accounts.csv", item: "account addresses", check: address },
  domain_blocks: {
    file: "blocked_domains.csv",
    item: "domains",
    check: (s) => {
      const d = s.toLowerCase().replace(/^\*\./, "");
      return DOMAIN.test(d) ? d : null;
    },
  },
  bookmarks: {
    file: "bookmarks.csv",
    item: "post links",
    check: (s) => (/^https?:\/\//i.test(s) && URL.canParse(s) ? new URL(s).href : null),
  },
};

/** An account address as name@host (Mastodon's exports always name the server), or null. */
function address(s: string): string | null {
  const m = ADDRESS.exec(s);
  return m ? `${m[1]}@${m[2].toLowerCase()}` : null;
}

/** Mastodon's header names, lower case, as the columns they name. */
const HEADER: Record<string, Exclude<keyof CsvRow, "line">> = {
  "account address": "item",
  "show boosts": "boosts",
  "notify on new posts": "notify",
  "hide notifications": "hide",
  "#domain": "item",
  "#uri": "item",
};

const truthy = (s: string | undefined) => (s === undefined ? undefined : s.trim().toLowerCase() !== "false");

export interface ParsedCsv {
  rows: CsvRow[];
  failures: { row: number; item: string; reason: string }[];
}

/** The rows of an uploaded Mastodon CSV of `kind`, or a 4xx saying what is wrong (nothing is written). */
export function parseMastodonCsv(kind: MastodonKind, bytes: Uint8Array): ParsedCsv {
  const what = WHAT[kind];
  if (bytes.length > MAX_CSV_BYTES)
    throw new AppError(413, "too_large", `The file is too large (at most ${MAX_CSV_BYTES >> 20} MB).`);
  if (bytes.includes(0) && !(bytes[0] === 0xff || bytes[0] === 0xfe))
    throw new AppError(
      422,
      "bad_file",
      `This is not a CSV file. Please choose ${what.file} from your Mastodon export.`,
    );
  const lines = parseCsv(decodeText(bytes));
  if (!lines.length) throw new AppError(422, "bad_file", "The file is empty.");
  const first = lines[0].map((h) => h.trim().toLowerCase());
  // A first line that names things rather than holding an address, domain or link is a header.
  const headed = first.some((h) => h in HEADER) || first.every((h) => !/[@.:/]/.test(h));
  if (headed && !first.some((h) => HEADER[h] === "item"))
    throw new AppError(
      422,
      "bad_file",
      `The file has no “Account address” column. Please choose ${what.file} from your Mastodon export.`,
      { file: "missing column" },
    );
  const columns = headed ? first.map((h) => HEADER[h]) : (["item"] as (keyof CsvRow | undefined)[]);
  const body = headed ? lines.slice(1) : lines;
  if (body.length > MAX_ROWS)
    throw new AppError(413, "too_many", `At most ${MAX_ROWS.toLocaleString("en")} rows in one import.`);
  const rows: CsvRow[] = [];
  const failures: ParsedCsv["failures"] = [];
  const seen = new Map<string, number>();
  body.forEach((line, i) => {
    const n = i + (headed ? 2 : 1);
    const raw: Partial<Record<keyof CsvRow, string>> = {};
    columns.forEach((c, j) => {
      if (c && line[j] !== undefined) raw[c] = line[j].trim();
    });
    const source = (raw.item ?? "").slice(0, 300);
    const item = what.check(source);
    if (!item) {
      failures.push({ row: n, item: source, reason: `not one of the ${what.item} this file should hold` });
      return;
    }
    const key = item.toLowerCase();
    const twin = seen.get(key);
    if (twin) {
      failures.push({ row: n, item, reason: `a duplicate of row ${twin}` });
      return;
    }
    seen.set(key, n);
    rows.push({ item, line: n, boosts: truthy(raw.boosts), notify: truthy(raw.notify), hide: truthy(raw.hide) });
  });
  const bad = failures.filter((f) => !f.reason.startsWith("a duplicate")).length;
  // A file of another kind (bookmarks given as follows) is refused whole, as Mastodon warns of a mismatch.
  if (!rows.length || bad > rows.length)
    throw new AppError(
      422,
      "bad_file",
      `Most rows of this file are not ${what.item}. Please choose ${what.file} from your Mastodon export.`,
    );
  return { rows, failures };
}
