// Mastodon's search (GET /api/v2/search, GET /api/v1/accounts/search) over the web's: accounts by
// name, statuses by the same full-text index, hashtags by the word. What an account or a status
// shows is read on the search's own rows (columns.ts), so the pages asked for are one batch.
import { z } from "zod";
import type { Context } from "hono";
import { eachOf, known, pairOf, readOne } from "../../db/reads";
import type { AppEnv } from "../../env";
import { findRemotePost } from "../federation/find";
import { PAGE_SIZE } from "../../lib/paging";
import { isRemoteQuery } from "../federation/handles";
import type { NoteJson } from "../notes/notes.types";
import { searchReadWith } from "../search/search.service";
import { accountByAcct, remoteAccount } from "./accounts.routes";
import { ACCOUNT_EXTRA, accountRowOf, addNote, emptyCtx, STATUS_COLUMNS } from "./columns";
import { limitOf, type MastoContext, queryOf, viewerId, originOf } from "./masto.http";
import { account, type AccountRow, noteStatus, type StatusRef } from "./serialise";
import { inOrder, refsRead, refsWhere } from "./statuses.service";

const SearchQ = z.object({
  q: z.string().max(500).default(""),
  type: z.enum(["accounts", "statuses", "hashtags"]).optional().catch(undefined),
  offset: z.coerce.number().int().min(0).max(10_000).catch(0),
  resolve: z.string().optional(),
});

/** The account a handle (name@host) or, on `resolve`, a profile URL names: it comes first. */
async function exactAccount(c: MastoContext, q: z.output<typeof SearchQ>): Promise<AccountRow | null> {
  const text = q.q.trim();
  if (!isRemoteQuery(text)) return null;
  const resolve = (q.resolve === "true" || q.resolve === "1") && !!c.var.user;
  if (/^https?:/i.test(text)) return resolve ? await remoteAccount(c, text) : null;
  return accountByAcct(c, text, resolve);
}

/**
 * The post a URL names, on `resolve` for a person (Mastodon apps boost or answer a pasted link this
 * way): a post here, or one fetched from its server and stored (federate.ts findRemotePost).
 */
async function exactPost(c: MastoContext, q: z.output<typeof SearchQ>): Promise<StatusRef | null> {
  const text = q.q.trim();
  const resolve = (q.resolve === "true" || q.resolve === "1") && !!c.var.user;
  if (!resolve || !/^https?:\/\/\S+$/i.test(text) || !URL.canParse(text)) return null;
  return findRemotePost(c as unknown as Context<AppEnv>, text);
}

type Hit = { id: number; username: string; fullname: string; avatar: string };

/**
 * Mastodon pages by offset and limit, NoteX's search by pages of 20: the window asked for (limit
 * at most 20, NoteX's search page) is cut from the page it starts in and, when it runs past that
 * page's end, the next one: at most two bounded reads of each kind, all in one batch. A handle's
 * own account is looked up first (on its server, on resolve), and only for the first page.
 * `only`: the accounts alone (GET /api/v1/accounts/search reads no statuses).
 */
export async function searchAll(c: MastoContext, only?: "accounts") {
  const q = await queryOf(c, SearchQ);
  const type = only ?? q.type;
  const viewer = viewerId(c);
  const origin = originOf(c);
  const size = Math.min(limitOf(c, "search"), PAGE_SIZE);
  const start = q.offset % PAGE_SIZE;
  const first = Math.floor(q.offset / PAGE_SIZE) + 1;
  const pages = start + size > PAGE_SIZE ? [first, first + 1] : [first];
  const cut = <T>(list: T[]) => list.slice(start, start + size);
  const want = (t: string) => !!q.q.trim() && (!type || type === t);
  const exact = want("accounts") && first === 1 ? await exactAccount(c, q) : null;
  // A URL that names a person is not a post: the post is looked for only when no account was found.
  const post = want("statuses") && first === 1 && !exact ? await exactPost(c, q) : null;
  const people = want("accounts")
    ? pages.map((page) =>
        searchReadWith(c.var.db, { q: q.q.replace(/^@/, ""), t: "users", page }, viewer, ACCOUNT_EXTRA),
      )
    : [];
  const found = want("statuses")
    ? pages.map((page) => searchReadWith(c.var.db, { q: q.q, t: "notes", page }, viewer, STATUS_COLUMNS))
    : [];
  const [[peoplePages, notePages], resolved] = await readOne(
    c.var.db,
    pairOf(
      pairOf(eachOf(people), eachOf(found)),
      post ? refsRead(c.var.db, origin, viewer, refsWhere([post])) : known(null),
    ),
  );
  const listed = peoplePages.flatMap((p) => p.rows.map((row) => accountRowOf(row as unknown as Hit, row)));
  const accounts = exact ? [exact, ...listed.filter((r) => r.id !== exact.id)] : listed;
  const ctx = emptyCtx(origin);
  const hits = notePages.flatMap((p) => {
    const shown = "notes" in p.page ? (p.page.notes as NoteJson[]) : [];
    shown.forEach((note, i) => {
      addNote(ctx, note, p.rows[i]);
    });
    return shown;
  });
  const word = q.q.trim().replace(/^#/, "");
  const hashtags =
    want("hashtags") && q.offset === 0 && /^[\p{L}\p{N}_]{1,50}$/u.test(word)
      ? [
          {
            name: word.toLowerCase(),
            url: `${origin}/tag/${encodeURIComponent(word.toLowerCase())}`,
            history: [],
            following: false,
          },
        ]
      : [];
  return {
    accounts: cut(accounts).map((r) => account(r, origin)),
    statuses: [
      ...(post && resolved ? inOrder([post], resolved) : []),
      ...cut(hits)
        .filter((note) => !(post?.kind === "note" && post.id === note.id))
        .map((note) => noteStatus(note, ctx)),
    ],
    hashtags,
  };
}
