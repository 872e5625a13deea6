// LinkedIn's "Get a copy of your data" archive as x-folders: each CSV of the profile's sections
// becomes folders of the matching type, with the role (a title, a degree, an issuer) and months.
import { csvRecords } from "./csv";
import { baseName, readZip } from "./zip";

export interface ImportItem {
  /** Stable per row (type and name, lower case): the same row imported twice is one folder. */
  key: string;
  source: string;
  type: string;
  name: string;
  role: string;
  start_month: string;
  end_month: string;
  descr: string;
  link: string;
}

export interface ImportProblem {
  file: string;
  row: number;
  reason: string;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * A month as LinkedIn writes it ("Jan 2020", "January 2020", "01/2020", "2020-01", "2020",
 * "Jan 5, 2020") as "YYYY-MM"; a year alone is its January; anything else is "".
 */
export function monthOf(s: string): string {
  const t = s.trim().toLowerCase();
  if (!t) return "";
  const pad = (m: number) => String(m).padStart(2, "0");
  let m = /^([a-z]{3})[a-z]*\.?\s+(?:\d{1,2},?\s+)?(\d{4})$/.exec(t);
  if (m && MONTHS.includes(m[1])) return `${m[2]}-${pad(MONTHS.indexOf(m[1]) + 1)}`;
  m = /^(\d{1,2})\/(?:\d{1,2}\/)?(\d{4})$/.exec(t);
  if (m && +m[1] >= 1 && +m[1] <= 12) return `${m[2]}-${pad(+m[1])}`;
  m = /^(\d{4})-(\d{1,2})(?:-\d{1,2})?$/.exec(t);
  if (m && +m[2] >= 1 && +m[2] <= 12) return `${m[1]}-${pad(+m[2])}`;
  if (/^\d{4}$/.test(t)) return `${t}-01`;
  return "";
}

type Rec = Record<string, string>;
const col = (r: Rec, ...names: string[]) => names.map((n) => r[n]).find((v) => v) ?? "";
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Each file of the export LinkedIn documents: the folder type its rows become and how. */
const FILES: Record<string, { type: string; needs: string; row: (r: Rec) => Partial<ImportItem> }> = {
  "positions.csv": {
    type: "Company",
    needs: "company name",
    row: (r) => ({
      name: col(r, "company name"),
      role: col(r, "title"),
      descr: [col(r, "description"), col(r, "location")].filter(Boolean).join("\n"),
      start_month: monthOf(col(r, "started on", "start date")),
      end_month: monthOf(col(r, "finished on", "end date")),
    }),
  },
  "education.csv": {
    type: "School",
    needs: "school name",
    row: (r) => ({
      name: col(r, "school name"),
      role: col(r, "degree name"),
      descr: [col(r, "notes"), col(r, "activities")].filter(Boolean).join("\n"),
      start_month: monthOf(col(r, "start date", "started on")),
      end_month: monthOf(col(r, "end date", "finished on")),
    }),
  },
  "skills.csv": { type: "Skill", needs: "name", row: (r) => ({ name: col(r, "name") }) },
  "projects.csv": {
    type: "Project",
    needs: "title",
    row: (r) => ({
      name: col(r, "title"),
      descr: col(r, "description"),
      link: col(r, "url"),
      start_month: monthOf(col(r, "started on")),
      end_month: monthOf(col(r, "finished on")),
    }),
  },
  "certifications.csv": {
    type: "Certification",
    needs: "name",
    row: (r) => ({
      name: col(r, "name"),
      role: col(r, "authority"),
      link: col(r, "url"),
      descr: col(r, "license number") ? `License ${col(r, "license number")}` : "",
      start_month: monthOf(col(r, "started on")),
      end_month: monthOf(col(r, "finished on")),
    }),
  },
  "languages.csv": {
    type: "Language",
    needs: "name",
    row: (r) => ({ name: col(r, "name"), descr: col(r, "proficiency") }),
  },
  "courses.csv": {
    type: "Course",
    needs: "name",
    row: (r) => ({ name: col(r, "name"), descr: col(r, "number") ? `Course ${col(r, "number")}` : "" }),
  },
  "honors.csv": {
    type: "Award",
    needs: "title",
    row: (r) => ({ name: col(r, "title"), descr: col(r, "description"), start_month: monthOf(col(r, "issued on")) }),
  },
  "volunteering.csv": {
    type: "Organization",
    needs: "company name",
    row: (r) => ({
      name: col(r, "company name"),
      role: col(r, "role"),
      descr: [col(r, "cause"), col(r, "description")].filter(Boolean).join("\n"),
      start_month: monthOf(col(r, "started on")),
      end_month: monthOf(col(r, "finished on")),
    }),
  },
};

/** The folders a LinkedIn export holds, in file order, and the rows left out with why. */
export function linkedinItems(zip: Uint8Array): { items: ImportItem[]; problems: ImportProblem[] } {
  const files = readZip(zip, (name) => baseName(name) in FILES);
  const items: ImportItem[] = [];
  const problems: ImportProblem[] = [];
  const seen = new Map<string, ImportItem>();
  const found = Object.entries(files).sort(
    ([a], [b]) => Object.keys(FILES).indexOf(baseName(a)) - Object.keys(FILES).indexOf(baseName(b)),
  );
  for (const [path, bytes] of found) {
    const file = path.split("/").pop() ?? path;
    const spec = FILES[baseName(path)];
    const { header, records } = csvRecords(bytes);
    if (!header.includes(spec.needs)) {
      problems.push({
        file,
        row: 0,
        reason: `missing the column “${spec.needs.replace(/\b\w/g, (c) => c.toUpperCase())}”`,
      });
      continue;
    }
    records.forEach((r, i) => {
      const row = spec.row(r);
      const name = cut((row.name ?? "").replace(/\s+/g, " ").trim(), 250);
      if (!name) {
        problems.push({ file, row: i + 2, reason: "no name" });
        return;
      }
      let item: ImportItem = {
        key: `${spec.type}|${name}`.toLowerCase(),
        source: file,
        type: spec.type,
        name,
        role: cut(row.role ?? "", 100),
        start_month: row.start_month ?? "",
        end_month: row.end_month && row.start_month && row.end_month >= row.start_month ? row.end_month : "",
        descr: cut(row.descr ?? "", 500),
        link: cut(row.link ?? "", 300),
      };
      const twin = seen.get(item.key);
      if (twin && twin.role === item.role && twin.start_month === item.start_month) {
        problems.push({ file, row: i + 2, reason: `a duplicate of “${name}”` });
        return;
      }
      // Two roles at one company are two folders: the later one is named with its role.
      if (twin) {
        const named = cut(`${name} (${item.role || item.start_month || i + 2})`, 250);
        item = { ...item, name: named, key: `${spec.type}|${named}`.toLowerCase() };
      }
      seen.set(item.key, item);
      items.push(item);
    });
  }
  if (!found.length)
    problems.push({
      file: "",
      row: 0,
      reason: "no LinkedIn profile files (Positions.csv, Education.csv, Skills.csv…) in the archive",
    });
  return { items, problems };
}
