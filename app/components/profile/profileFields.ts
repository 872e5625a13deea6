import { MAX_LINKS } from "../../../worker/features/users/profile.limits";

/** The fields the profile form can report an error on (the API's field keys). */
export const PROFILE_FIELDS = [
  "name",
  "headline",
  "descr",
  "location",
  "links",
  ...Array.from({ length: MAX_LINKS }, (_, i) => [`links.${i}.name`, `links.${i}.url`]).flat(),
];
