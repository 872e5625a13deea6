// Issue 20 §6: a failed no-JS form post returns to its page with an error in the query string
// (`?folder_error=`, `?reply_error=`, `?edit_error=`, `?profile_error=`). The query carries a code
// from this table, never text: a link cannot make the site say words it never wrote.

const NOTICES: Record<string, string> = {
  folder_not_empty: "You have to remove all notes of this folder before deleting it.",
  folder_not_found: "Folder not found",
  reply_empty: "Please enter your reply.",
  reply_long: "Reply should be less than 500 characters long.",
  name_required: "Name is required",
  name_long: "Name must be less than 100",
  descr_long: "Description must be less than 300",
  headline_long: "Headline must be less than 100",
  location_long: "Location must be less than 60",
  link_bad: "Link must start with https://",
  link_long: "Link must be less than 300 characters",
  link_name_long: "Link name must be less than 40",
  links_many: "At most 4 links",
  rate_limited: "Too many requests, please try again.",
  failed: "Something went wrong. Please try again.",
};

const CODES = new Map(Object.entries(NOTICES).map(([code, text]) => [text, code]));

/** The code of an API message for the query string; a message this table does not know is "failed". */
export const noticeCode = (message: string | undefined) => CODES.get(message ?? "") ?? "failed";

/** The message of a code from the query string; anything else shows nothing. */
export const noticeText = (code: string | null | undefined) =>
  code && Object.hasOwn(NOTICES, code) ? NOTICES[code] : null;

/** Field errors as `field:code,field:code` (the profile form), and back; unknown fields or codes are dropped. */
export const fieldCodes = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([field, message]) => `${field}:${noticeCode(message)}`)
    .join(",");

export function fieldTexts(param: string | null, known: readonly string[]): Record<string, string> | undefined {
  if (!param) return undefined;
  const out: Record<string, string> = {};
  for (const pair of param.split(",")) {
    const [field, code] = pair.split(":");
    const text = noticeText(code);
    if (known.includes(field) && text) out[field] = text;
  }
  return Object.keys(out).length ? out : undefined;
}
