// What a visitor's first page shows of the network itself: one real portfolio and one real thread,
// read with the page's other reads (one batch). Only what a visitor may see: no hidden content, no
// suspended author.
import { bindingOf } from "../../db/plan";
import { namedRead, type Read } from "../../db/reads";
import type { DB } from "../../env";

export interface ShowcaseFolder {
  type: string;
  name: string;
  slug: string;
  notenum: number;
}
export interface ShowcasePerson {
  username: string;
  fullname: string;
  avatar: string;
  descr: string;
}
export interface ShowcasePost extends ShowcasePerson {
  id: number;
  txt: string;
  repnum: number;
}
export interface Showcase {
  portfolio: { person: ShowcasePerson; folders: ShowcaseFolder[] } | null;
  thread: { note: ShowcasePost; replies: ShowcasePost[] } | null;
}

// Among the most-followed people (a bounded walk down users_followers_idx), the first whose
// portfolio has at least two x-folders with notes, each candidate checked by at most two entries
// of its folders' index: a visitor sees a full one, at a cost that does not grow with the network.
const CANDIDATES = 50;
const PORTFOLIO = `select u.username, u.fullname, u.avatar, u.descr, f.type, f.name, f.slug, f.notenum
  from folders f join users u on u.id = f.user_id
  where f.user_id = (select c.id from (select id, follower_num from users where suspended_at is null
        order by follower_num desc, id desc limit ${CANDIDATES}) c
      where (select count(*) from (select 1 from folders cf where cf.user_id = c.id and cf.notenum > 0 limit 2)) = 2
      order by c.follower_num desc, c.id desc limit 1)
    and f.notenum > 0
  order by f.notenum desc, f.id desc limit 4`;

// Among the latest notes, the one with the most replies: a conversation that is going on now,
// found along the notes' time index without sorting the whole table.
const THREAD_NOTE = `(select id from (select n.id, n.repnum from notes n join users a on a.id = n.user_id
    where n.kind = 0 and n.hidden_at is null and a.suspended_at is null and n.txt != ''
    order by n.created_at desc, n.id desc limit 40) where repnum > 0 order by repnum desc, id desc limit 1)`;
const NOTE = `select n.id, n.txt, n.repnum, u.username, u.fullname, u.avatar, u.descr
  from notes n join users u on u.id = n.user_id where n.id = ${THREAD_NOTE}`;
const REPLIES = `select r.id, r.txt, r.repnum, u.username, u.fullname, u.avatar, u.descr
  from replies r join users u on u.id = r.user_id
  where r.note_id = ${THREAD_NOTE} and r.parent_reply_id is null and r.hidden_at is null and u.suspended_at is null
  order by r.created_at, r.id limit 2`;

const person = (r: Record<string, unknown>): ShowcasePerson => ({
  username: String(r.username),
  fullname: String(r.fullname),
  avatar: String(r.avatar),
  descr: String(r.descr),
});
const post = (r: Record<string, unknown>): ShowcasePost => ({
  ...person(r),
  id: Number(r.id),
  txt: String(r.txt),
  repnum: Number(r.repnum),
});

export function showcaseRead(db: DB): Read<Showcase> {
  const d1 = bindingOf(db);
  return namedRead(
    { folders: d1.prepare(PORTFOLIO), note: d1.prepare(NOTE), replies: d1.prepare(REPLIES) },
    ({ folders, note, replies }) => {
      const first = folders.results[0];
      const lead = note.results[0];
      return {
        portfolio: first
          ? {
              person: person(first),
              folders: folders.results.map((f) => ({
                type: String(f.type),
                name: String(f.name),
                slug: String(f.slug),
                notenum: Number(f.notenum),
              })),
            }
          : null,
        thread: lead ? { note: post(lead), replies: replies.results.map(post) } : null,
      };
    },
  );
}
