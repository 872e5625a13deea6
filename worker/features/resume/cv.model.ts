// What a printed CV shows, from the JSON Resume document: sections in the order a reader expects,
// each entry a heading, a line under it, its dates and its text. The CV page and the export's
// cv.html both draw this, so they cannot disagree with resume.json.
import type { JsonResume } from "./resume.json";

export interface CvEntry {
  title: string;
  subtitle: string;
  dates: string;
  url: string;
  summary: string;
}

export interface Cv {
  name: string;
  label: string;
  summary: string;
  profile: string;
  sections: { title: string; entries: CvEntry[] }[];
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2021-03" → "Mar 2021", "2021" → "2021". */
export function monthLabel(d: string): string {
  const m = /^(\d{4})-(\d{2})/.exec(d);
  return m ? `${MONTHS[Number(m[2]) - 1] ?? ""} ${m[1]}`.trim() : d;
}

/** A span: "Mar 2021 – Present" while it goes on, one date for a single day's event. */
export function span(start?: unknown, end?: unknown, ongoing = true): string {
  const s = typeof start === "string" ? start : "";
  const e = typeof end === "string" ? end : "";
  if (!s) return e ? monthLabel(e) : "";
  return e ? `${monthLabel(s)} – ${monthLabel(e)}` : ongoing ? `${monthLabel(s)} – Present` : monthLabel(s);
}

type Entry = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : "");

const entry = (title: unknown, subtitle: unknown, dates: string, e: Entry, summary: unknown = e.summary): CvEntry => ({
  title: str(title),
  subtitle: str(subtitle),
  dates,
  url: str(e.url),
  summary: str(summary),
});

export function cvOf(r: JsonResume): Cv {
  const sections: Cv["sections"] = [
    {
      title: "Experience",
      entries: r.work.map((e) =>
        entry(e.position || e.name, e.position ? e.name : "", span(e.startDate, e.endDate), e),
      ),
    },
    {
      title: "Education",
      entries: r.education.map((e) =>
        entry(
          e.institution || e.area,
          [e.studyType, e.institution ? e.area : ""].filter(Boolean).join(", "),
          span(e.startDate, e.endDate),
          e,
        ),
      ),
    },
    {
      title: "Licenses & certifications",
      entries: r.certificates.map((e) => entry(e.name, e.issuer, span(e.date, "", false), e, "")),
    },
    {
      title: "Projects",
      entries: r.projects.map((e) =>
        entry(e.name, ((e.roles as string[]) ?? []).join(", "), span(e.startDate, e.endDate), e, e.description),
      ),
    },
    {
      title: "Volunteering",
      entries: r.volunteer.map((e) =>
        entry(e.position || e.organization, e.position ? e.organization : "", span(e.startDate, e.endDate), e),
      ),
    },
    { title: "Honors & awards", entries: r.awards.map((e) => entry(e.title, e.awarder, span(e.date, "", false), e)) },
    { title: "Skills", entries: r.skills.map((e) => entry(e.name, "", "", e, "")) },
    { title: "Languages", entries: r.languages.map((e) => entry(e.language, e.fluency, "", e, "")) },
  ];
  const b = r.basics;
  return {
    name: b.name,
    label: str(b.label),
    summary: str(b.summary),
    profile: str(b.url),
    sections: sections.filter((s) => s.entries.length),
  };
}
