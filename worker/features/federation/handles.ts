// What names a person on another server, shared by the API and the search page (no imports, so a
// page can use it without pulling federation in).

/** A handle with a server (`name@host`, `@name@host`) or a profile URL (`https://host/@name`). */
export const isRemoteQuery = (q: string) => /^@?[^@\s/]+@[^@\s/]+$/.test(q) || /^https?:\/\/\S+$/i.test(q);
