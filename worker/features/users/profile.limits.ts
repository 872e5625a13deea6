// The profile's limits without the schema that checks them, so the browser's profile form can
// read them without loading zod.

/** As many links as Mastodon allows profile fields. */
export const MAX_LINKS = 4;
