import { and, asc, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { ownRow, runBatch, runNamed } from "../../db/client";
import { insertWhere } from "../../db/insert";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import { type Read, readOne } from "../../db/reads";
import { plus } from "../../db/counters";
import { folders } from "../../db/schema/folders";
import { users, userTypes } from "../../db/schema/users";
import { personVisible } from "../safety/visibility";
import { idNamed } from "../users/users.service";
import type { DB } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import type { UserRef } from "../content/content";
import { type FolderInput, slugify } from "./folders.schema";
import { CV_SECTIONS, isExperience } from "./folders.constants";
import type { z } from "zod";

type Input = z.output<typeof FolderInput>;
type Row = typeof folders.$inferSelect;

export interface FolderJson {
  id: number;
  uid: number;
  type: string;
  name: string;
  slug: string;
  descr: string;
  link: string;
  logo: string;
  notenum: number;
  noted_at: number;
  likenum: number;
  /** An experience's role and months ("YYYY-MM" or ""); a start without an end is ongoing. */
  role: string;
  start_month: string;
  end_month: string;
  user?: UserRef;
  /** The spec's wire field, JSON text: x-label → note count in this folder (on one folder). */
  jslabel?: string;
  /** The same counts as an object, for pages (on one folder). */
  labels?: Record<string, number>;
}

export const toJson = (f: Row): FolderJson => ({
  id: f.id,
  uid: f.userId,
  type: f.type,
  name: f.name,
  slug: f.slug,
  descr: f.descr,
  link: f.link,
  logo: f.logo,
  notenum: f.notenum,
  noted_at: f.notedAt,
  likenum: f.likenum,
  role: f.role,
  start_month: f.startMonth,
  end_month: f.endMonth,
});

/** The stored fields of a folder from its input: only experience types keep a role and months. */
function columns(input: Input) {
  const exp = isExperience(input.type);
  return {
    type: input.type,
    name: input.name,
    descr: input.descr,
    link: input.link,
    role: exp ? input.role : "",
    startMonth: exp ? input.start_month : "",
    endMonth: exp ? input.end_month : "",
  };
}

// jstype: the user's folder count per type. The folder's current type loses one before its edit
// or delete ("out"), and its type after the insert or edit gains one ("in"), each read from the
// folder row as it stands in the batch: O(1), and exact when edits race.
const typeOf = (uid: number, folder: SQL) => sql`(select type from folders where ${folder} and user_id = ${uid})`;

const typeOut = (db: DB, uid: number, folder: SQL) =>
  db
    .update(userTypes)
    .set({ n: plus(userTypes.n, -1) })
    .where(and(eq(userTypes.userId, uid), sql`${userTypes.type} = ${typeOf(uid, folder)}`));

const typeIn = (db: DB, uid: number, folder: SQL) =>
  db
    .insert(userTypes)
    .select(
      db
        .select({ userId: folders.userId, type: folders.type, n: sql<number>`1`.as("n") })
        .from(folders)
        .where(and(folder, eq(folders.userId, uid))),
    )
    .onConflictDoUpdate({ target: [userTypes.userId, userTypes.type], set: { n: plus(userTypes.n, 1) } });

const typeTidy = (db: DB, uid: number) =>
  db.delete(userTypes).where(and(eq(userTypes.userId, uid), eq(userTypes.n, 0)));

const duplicate = () => new AppError(409, "folder_exists", "You already have this x-folder");

/** A folder of the user's other than `id` (0: none) with the same type and name: the spec's duplicate. */
const duplicateOf = (uid: number, input: Input, id: number) =>
  sql`exists(select 1 from folders d where d.user_id = ${uid} and d.id != ${id} and lower(d.type) = lower(${input.type}) and lower(d.name) = lower(${input.name}))`;

/** The edited folder `id` is the user's (a create edits none). */
const owned = (uid: number, id: number) =>
  id ? sql`exists(select 1 from folders o where o.id = ${id} and o.user_id = ${uid})` : sql`1`;

/**
 * What a folder save is decided from, the first statement of its batch: the edited folder is the
 * caller's (a 404 if not), and a duplicate (a 409). Every write after it carries saveAllows, the
 * same condition, so a refused save changes nothing.
 */
const saveFacts = (db: DB, uid: number, input: Input, id: number) =>
  db
    .select({ found: sql<number>`${owned(uid, id)}`.as("found"), duplicate: duplicateOf(uid, input, id).as("dup") })
    .from(sql`(select 1)`);

const saveAllows = (uid: number, input: Input, id: number) =>
  sql`(${owned(uid, id)} and not ${duplicateOf(uid, input, id)})`;

/** The save's answer from its facts: the row it wrote, or the refusal. */
function saveAnswer(facts: { found: number; duplicate: number } | undefined, row: SavedRow | undefined) {
  if (!facts?.found) throw notFound("Folder not found");
  if (facts.duplicate || !row) throw duplicate();
  return savedJson(row);
}

/**
 * The slug for a folder named `name`, chosen inside the save's batch: the name's slug while no other
 * folder of the user's (but `id`) has it, else the first free of base-2, base-3, … At most one
 * candidate per other folder is taken, so the first free one is among the first count + 1.
 */
const freeSlug = (uid: number, id: number, name: string) => {
  const base = slugify(name);
  const candidate = sql`(case when n.i = 1 then ${base} else ${base} || '-' || n.i end)`;
  return sql`(with recursive n(i) as (select 1 union all select i + 1 from n where i <= (select count(*) from folders c where c.user_id = ${uid})) select ${candidate} from n where not exists(select 1 from folders t where t.user_id = ${uid} and t.id != ${id} and t.slug = ${candidate}) order by n.i limit 1)`;
};

/** The user's own folder `id`, or a 404. */
const ownFolder = (db: DB, uid: number, id: number): Promise<Row> => ownRow(db, folders, id, uid, "Folder");

/** A folder's own page, answered on create and edit so the page that saved it needs no second call. */
const folderHref = (username: string, slug: string) => `/${username}/x/${encodeURIComponent(slug)}`;

/**
 * The saved row with its owner's username, in the write's own statement (a session names only the
 * account): the href needs no trip of its own.
 */
const savedRow = (uid: number) => ({
  ...getTableColumns(folders),
  username: sql<string>`(select username from users where id = ${uid})`,
});

type SavedRow = Row & { username: string | null };
type Facts = { found: number; duplicate: number };

const savedJson = (row: SavedRow) => ({
  ...toJson(row),
  href: folderHref(row.username ?? "", row.slug),
});

/**
 * One batch: the facts, the type count (placed before the insert, under the same guard: the insert
 * then surely adds the row, its slug free and its name no duplicate), and the guarded insert.
 */
export async function createFolder(db: DB, uid: number, input: Input) {
  const ok = saveAllows(uid, input, 0);
  const done = await runNamed(db, {
    facts: saveFacts(db, uid, input, 0),
    typeCount: insertWhere(db, userTypes, { userId: uid, type: input.type, n: 1 }, ok).onConflictDoUpdate({
      target: [userTypes.userId, userTypes.type],
      set: { n: plus(userTypes.n, 1) },
    }),
    saved: insertWhere(
      db,
      folders,
      { userId: uid, slug: freeSlug(uid, 0, input.name), ...columns(input) },
      ok,
    ).returning(savedRow(uid)),
  });
  return saveAnswer((done.facts as Facts[])[0], (done.saved as SavedRow[])[0]);
}

/** One batch: the facts, then the edit's statements under the same guard. The slug stays while the name does. */
export async function updateFolder(db: DB, uid: number, id: number, input: Input) {
  const self = and(eq(folders.id, id), saveAllows(uid, input, id)) as SQL;
  const done = await runNamed(db, {
    facts: saveFacts(db, uid, input, id),
    typeOut: typeOut(db, uid, self),
    saved: db
      .update(folders)
      .set({
        slug: sql`case when ${folders.name} = ${input.name} then ${folders.slug} else ${freeSlug(uid, id, input.name)} end`,
        ...columns(input),
      })
      .where(and(self, eq(folders.userId, uid)))
      .returning(savedRow(uid)),
    typeIn: typeIn(db, uid, self),
    typeTidy: typeTidy(db, uid),
  });
  const [facts] = done.facts as Facts[];
  const [row] = done.saved as SavedRow[];
  return saveAnswer(facts, row);
}

export async function deleteFolder(db: DB, uid: number, id: number) {
  const old = await ownFolder(db, uid, id);
  if (old.notenum > 0) {
    throw new AppError(422, "folder_not_empty", "You have to remove all notes of this folder before deleting it.");
  }
  // notenum = 0 in the where too: a note filed in the meantime keeps the folder alive.
  const empty = and(eq(folders.id, id), eq(folders.notenum, 0)) as SQL;
  // Its likes, bookmarks, reports and notifications go with it (foreign keys), and only with it:
  // a folder a racing filing keeps keeps them, and its likenum stays true.
  await runBatch(db, [
    typeOut(db, uid, empty),
    db.delete(folders).where(and(empty, eq(folders.userId, uid))),
    typeTidy(db, uid),
  ]);
}

/**
 * A CV's order: section by section (Experience, Education, … then any other type), and in each the
 * ongoing first, then the latest ended, then the latest started; undated ones last, by Noted at.
 */
const cvOrder = () => {
  const lower = sql`lower(${folders.type})`;
  const cases = CV_SECTIONS.map(
    (s, i) =>
      sql`when ${lower} in (${sql.join(
        s.types.map((t) => sql`${t.toLowerCase()}`),
        sql`, `,
      )}) then ${i}`,
  );
  return [
    sql`case ${sql.join(cases, sql` `)} else ${CV_SECTIONS.length} end`,
    sql`(${folders.startMonth} != '' and ${folders.endMonth} = '') desc`,
    desc(folders.endMonth),
    desc(folders.startMonth),
    desc(folders.notedAt),
    desc(folders.id),
  ];
};

type FolderList = { folders: FolderJson[]; paginator: { page: number; is_end: boolean }; cursor: string | null };

/** A user's folders, filtered by type; sorted by Noted at (keyset), by Type, or as a CV reads. One statement. */
export function foldersRead(
  db: DB,
  q: { uid?: number; username?: string; type?: string; sort: "type" | "time" | "cv"; page: number; cursor?: string },
  viewerId: number | null = null,
): Read<FolderList> {
  const { after, offset } = q.sort === "time" ? startOf(q) : { after: null, offset: 0 };
  const owner = q.uid ?? idNamed(q.username ?? "");
  const where = and(
    eq(folders.userId, owner),
    q.type ? eq(folders.type, q.type) : undefined,
    // A profile list, so the visibility rule for its owner (suspended, or a block either way) holds.
    personVisible(owner, viewerId),
  );
  const plan = planFrom(
    q.sort === "time"
      ? db
          .select()
          .from(folders)
          .where(and(where, after ? sql`(${folders.notedAt}, ${folders.id}) < (${after.at}, ${after.id})` : undefined))
          .orderBy(desc(folders.notedAt), desc(folders.id))
          .limit(PAGE_SIZE + 1)
          .offset(offset)
      : // By type or as a CV: a person's folders are few, so these orders page by offset (indexed on
        // user_id), at any depth: they never walk more than one person's folders.
        db
          .select()
          .from(folders)
          .where(where)
          .orderBy(...(q.sort === "cv" ? cvOrder() : [asc(folders.type), desc(folders.notedAt), desc(folders.id)]))
          .limit(PAGE_SIZE + 1)
          .offset((q.page - 1) * PAGE_SIZE),
  );
  return {
    statements: [bindPlan(db, plan, {})],
    value: ([r]) => {
      const page = pageOf(namedObjects<Row>(plan, r.results), q.page, (f) => ({ at: f.notedAt, id: f.id }));
      return {
        folders: page.items.map(toJson),
        paginator: page.paginator,
        cursor: q.sort === "time" ? page.cursor : null,
      };
    },
  };
}

export const listFolders = (...args: Parameters<typeof foldersRead>) => readOne(args[0], foldersRead(...args));

/** json_group_object's text; an empty folder's is "{}" (and a missing one reads as none). */
function labelCounts(json: string | null): Record<string, number> {
  try {
    return json ? (JSON.parse(json) as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/** One folder by id, or by its slug and its owner's name, with its label counts: one statement. */
export function folderRead(
  db: DB,
  where: { id?: number; slug?: string; username?: string },
  viewerId: number | null,
): Read<FolderJson> {
  const cond =
    where.id !== undefined
      ? eq(folders.id, where.id)
      : and(eq(folders.slug, where.slug ?? ""), sql`lower(${users.username}) = lower(${where.username ?? ""})`);
  // The label counts come along as one JSON object.
  const plan = planFrom(
    db
      .select({
        ...getTableColumns(folders),
        username: users.username,
        fullname: users.fullname,
        avatar: users.avatar,
        jslabel:
          sql<string>`(select json_group_object(fl.label, fl.n) from folder_labels fl where fl.folder_id = ${folders.id} and fl.n > 0)`.as(
            "x_jslabel",
          ),
      })
      .from(folders)
      .innerJoin(users, eq(users.id, folders.userId))
      .where(and(cond, personVisible(users.id, viewerId)))
      .limit(1),
  );
  type Found = Row & { username: string; fullname: string; avatar: string; jslabel: string };
  return {
    statements: [bindPlan(db, plan, {})],
    value: ([r]) => {
      const [row] = namedObjects<Found>(plan, r.results);
      if (!row) throw notFound("Folder not found");
      return {
        ...toJson(row),
        user: {
          id: row.userId,
          username: row.username,
          fullname: row.fullname,
          avatar: row.avatar,
          me: row.userId === viewerId,
        },
        jslabel: row.jslabel,
        labels: labelCounts(row.jslabel),
      };
    },
  };
}

export const getFolder = (...args: Parameters<typeof folderRead>) => readOne(args[0], folderRead(...args));
