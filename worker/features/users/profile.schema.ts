import { z } from "zod";
import { CONTROL_MESSAGE, hasControl, oneLine } from "../../lib/text";
import { MAX_LINKS } from "./profile.limits";

// What makes a profile read as a page to link from a CV: a headline, a place and a few links.
// Left out of an edit, each stays as it was (a Mastodon app or an older client does not send them).

const line = (label: string, max: number) =>
  z
    .string()
    .transform(oneLine)
    .pipe(
      z
        .string()
        .max(max - 1, `${label} must be less than ${max}`)
        .refine((s) => !hasControl(s), `${label} ${CONTROL_MESSAGE}`),
    );

/** An address people can open: http or https, written whole. */
const LinkUrl = z
  .string()
  .transform(oneLine)
  .pipe(
    z
      .string()
      .max(300, "Link must be less than 300 characters")
      .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), "Link must start with https://"),
  );

export const ProfileLink = z.object({ name: line("Link name", 40).default(""), url: LinkUrl });
export type ProfileLinkInput = z.infer<typeof ProfileLink>;

export const ProfileExtras = {
  headline: line("Headline", 100).optional(),
  location: line("Location", 60).optional(),
  links: z.array(ProfileLink).max(MAX_LINKS, `At most ${MAX_LINKS} links`).optional(),
};

/** A stored link: Mastodon's field shape, the URL as its value. */
export interface StoredLink {
  name: string;
  value: string;
  verified_at: string | null;
}

/** The stored links of a `users.links` column (written only by editProfile, always an array). */
export function storedLinks(json: string | null | undefined): StoredLink[] {
  const list: unknown = JSON.parse(json || "[]");
  return Array.isArray(list) ? (list as StoredLink[]) : [];
}

/** A link's name when none was given: its host, as people say it ("github.com"). */
export const linkName = (l: { name: string; value: string }) =>
  l.name || (URL.canParse(l.value) ? new URL(l.value).host.replace(/^www\./, "") : l.value);
