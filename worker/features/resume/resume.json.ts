// A portfolio as a JSON Resume document (https://jsonresume.org/schema, v1.0.0): the x-folder
// types map onto the schema's sections, each folder's role and months onto the section's own
// fields. Empty values are left out, as the schema's examples do.
import type { Portfolio, PortfolioFolder } from "./resume.read";

export const RESUME_SCHEMA = "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json";

type Entry = Record<string, unknown>;

export interface JsonResume {
  $schema: string;
  basics: Entry & { name: string; profiles: Entry[] };
  work: Entry[];
  volunteer: Entry[];
  education: Entry[];
  awards: Entry[];
  certificates: Entry[];
  skills: Entry[];
  languages: Entry[];
  projects: Entry[];
  meta: { canonical: string; version: string; other: Entry[] };
}

/** The entry without its empty fields. */
const compact = (e: Entry): Entry =>
  Object.fromEntries(
    Object.entries(e).filter(([, v]) => v !== "" && v !== undefined && !(Array.isArray(v) && !v.length)),
  );

const dates = (f: PortfolioFolder) => ({ startDate: f.start, endDate: f.end });

/** Which section of the schema each folder type fills (types compared without case). */
const SECTIONS: Record<string, (f: PortfolioFolder) => [keyof JsonResume, Entry]> = {
  company: (f) => ["work", { name: f.name, position: f.role, url: f.link, ...dates(f), summary: f.descr }],
  organization: (f) => [
    "volunteer",
    { organization: f.name, position: f.role, url: f.link, ...dates(f), summary: f.descr },
  ],
  school: (f) => ["education", { institution: f.name, studyType: f.role, url: f.link, ...dates(f), summary: f.descr }],
  // A course or subject is studied, perhaps somewhere (its role names where).
  course: (f) => ["education", { institution: f.role, area: f.name, studyType: "Course", url: f.link, ...dates(f) }],
  subject: (f) => ["education", { institution: f.role, area: f.name, studyType: "Subject", url: f.link, ...dates(f) }],
  certification: (f) => ["certificates", { name: f.name, issuer: f.role, date: f.start, url: f.link }],
  project: (f) => [
    "projects",
    { name: f.name, description: f.descr, roles: f.role ? [f.role] : [], ...dates(f), url: f.link },
  ],
  skill: (f) => ["skills", { name: f.name }],
  language: (f) => ["languages", { language: f.name, fluency: f.descr }],
  award: (f) => ["awards", { title: f.name, awarder: f.role, date: f.start, summary: f.descr }],
};

const absolute = (origin: string, url: string) => (url.startsWith("/") ? `${origin}${url}` : url);

export function toJsonResume(p: Portfolio, origin: string): JsonResume {
  const profile = `${origin}/${p.username}`;
  const out: JsonResume = {
    $schema: RESUME_SCHEMA,
    basics: { name: p.fullname, profiles: [] },
    work: [],
    volunteer: [],
    education: [],
    awards: [],
    certificates: [],
    skills: [],
    languages: [],
    projects: [],
    meta: { canonical: `${profile}/resume.json`, version: "v1.0.0", other: [] },
  };
  for (const f of p.folders) {
    const section = SECTIONS[f.type.toLowerCase()];
    if (section) {
      const [key, entry] = section(f);
      (out[key] as Entry[]).push(compact(entry));
    } else {
      // The schema has no section for an album, a trip or a custom type: kept in meta, not lost.
      out.meta.other.push({ type: f.type, name: f.name, url: `${profile}/x/${encodeURIComponent(f.slug)}` });
    }
  }
  const current = p.folders.find((f) => f.type.toLowerCase() === "company" && f.start && !f.end && f.role);
  out.basics = {
    ...compact({
      name: p.fullname,
      label: current ? `${current.role} at ${current.name}` : "",
      image: p.avatar ? absolute(origin, p.avatar) : "",
      url: profile,
      summary: p.descr,
    }),
    name: p.fullname,
    profiles: [{ network: "NoteX", username: p.username, url: profile }],
  };
  return out;
}
