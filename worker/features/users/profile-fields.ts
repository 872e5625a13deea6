// A NoteX profile as other fediverse software shows profile fields (Mastodon's name/value pairs
// under the bio): the person's links, their printable CV and where they are. The actor's
// PropertyValue attachments (federation/person.ts) and a Mastodon app's Account.fields
// (mastodon/serialise.ts) are both this list, so the two cannot differ.
import { escapeHtml } from "../../lib/text";
import { linkName, storedLinks } from "./profile.schema";

export interface ProfileField {
  name: string;
  /** HTML, as Mastodon writes a field's value. */
  value: string;
  /** When the linked page was seen linking back with rel="me" (ISO), else null. */
  verified_at: string | null;
}

/** A link as Mastodon writes one in a field: rel="me", the address without its scheme as text. */
const linkHtml = (url: string) =>
  `<a href="${escapeHtml(url)}" rel="me nofollow noopener noreferrer" target="_blank">${escapeHtml(url.replace(/^https?:\/\//, "").replace(/\/$/, ""))}</a>`;

/** The fields of the person whose profile page is `page`, from their `links` and `location` columns. */
export function profileFields(
  page: string,
  person: { links?: string | null; location?: string | null },
): ProfileField[] {
  const links = storedLinks(person.links).map((l) => ({
    name: linkName(l),
    value: linkHtml(l.value),
    verified_at: l.verified_at ?? null,
  }));
  const place = person.location ? [{ name: "Location", value: escapeHtml(person.location), verified_at: null }] : [];
  return [...links, { name: "CV", value: linkHtml(`${page}/cv`), verified_at: null }, ...place];
}
