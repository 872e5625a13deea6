// The bench's network in one pass in JS (generate.mjs writes it out as SQL): people who follow
// each other, notes with labels, tags, pictures, quotes and renotes, likes, a deep reply chain and
// replies, folders with filed notes, bookmarks and notifications. Counters are computed from the
// rows they count.
import { pbkdf2Sync } from "node:crypto";

const salt = Buffer.alloc(16, 7);
/** Every bench person's password, bench1234, hashed once. */
export const PASSWORD_HASH = `pbkdf2-sha256$100000$${salt.toString("base64")}$${pbkdf2Sync("bench1234", salt, 100000, 32, "sha256").toString("base64")}`;
/** When the network's history starts. */
export const T0 = Date.UTC(2025, 0, 1);
const LABELS = ["note", "memo", "story", "idea", "learn", "thought", "insight", "tip", "guide", "research"];
const TAGS = [
  "edge",
  "sqlite",
  "react",
  "career",
  "design",
  "rust",
  "ai",
  "travel",
  "books",
  "music",
  "startup",
  "cloud",
];
const TYPES = ["Company", "Project", "Skill", "School"];
// The search row's word: in RARE_NOTES notes spread over time whatever the size, so the row shows
// what a rare word costs as the index grows around it (the bm25 window holds them all).
const RARE_WORD = "quasar";
const RARE_NOTES = 10;
const DEPTH = 20;

/**
 * A network with NOTES notes (and a tenth as many people, at least 600): its rows by table, the
 * tables in the order to load them, the counter updates to run after them, and the ids the
 * bench's rows aim at.
 */
export function buildNetwork(NOTES) {
  const USERS = Math.max(600, Math.round(NOTES / 10));
  const RARE_EVERY = Math.max(10, Math.floor(NOTES / RARE_NOTES / 10) * 10);
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };

  const tables = {};
  const add = (table, cols, row) => {
    tables[table] ??= { cols, rows: [] };
    tables[table].rows.push(row);
  };

  const users = Array.from({ length: USERS }, (_, i) => ({
    id: i + 1,
    following: 0,
    follower: 0,
    note: 0,
    noti: 0,
    labels: {},
    types: {},
  }));

  // Follows: user 1 follows 500 users; everyone else follows 10.
  const follow = (a, b) => {
    if (a === b) return;
    add("follows", ["follower_id", "followee_id", "created_at"], [a, b, T0]);
    users[a - 1].following++;
    users[b - 1].follower++;
  };
  // The bench's toggling writers (measure.mjs: bench10 to bench129) do not follow the popular and
  // fresh users (4 and 5) to begin with, so each of their follows and unfollows changes something.
  const writer = (i) => i >= 10 && i < 130;
  for (let j = 2; j <= 501; j++) follow(1, j);
  for (let i = 2; i <= USERS; i++) {
    const seen = new Set();
    while (seen.size < 10) {
      const j = 1 + Math.floor(rand() * USERS);
      if (j !== i && !seen.has(j) && !(writer(i) && (j === 4 || j === 5))) {
        seen.add(j);
        follow(i, j);
      }
    }
  }

  // Notes: NOTES spread over users in time order, with labels, tags and some images. bench2 is a
  // prolific author (every 20th note, all labels), so a profile's x-label list fills whole pages.
  // Every 10th note is a quote and every 10th a plain renote of an earlier note, so lists hydrate
  // originals as they do in real use.
  const notes = [];
  const renoted = new Set();
  for (let n = 1; n <= NOTES; n++) {
    const uid = n % 20 === 0 ? 2 : 1 + ((n * 7919) % USERS);
    const label = LABELS[Math.floor(rand() * LABELS.length)];
    const tag = TAGS[Math.floor(rand() * TAGS.length)];
    const created = T0 + n * 60_000;
    let kind = 0;
    let renoteOf = null;
    if (n > 100 && (n % 10 === 3 || n % 10 === 7)) {
      const target = notes[Math.floor(rand() * notes.length)];
      const original = target.renoteOf ?? target;
      if (n % 10 === 3) kind = 2;
      else if (!renoted.has(`${uid}:${original.id}`) && original.uid !== uid) kind = 1;
      if (kind) {
        renoteOf = original;
        renoted.add(`${uid}:${original.id}`);
        original.renum++;
        original.dirty = true;
      }
    }
    // RARE_WORD is in RARE_NOTES notes at every size (every n here is a multiple of 10, never a renote).
    const rare = n % RARE_EVERY === 0 ? ` ${RARE_WORD}` : "";
    const txt = kind === 1 ? "" : `Bench note ${n} about #${tag} and ${label}${rare}.`;
    const note = {
      id: n,
      uid,
      kind,
      label: kind === 1 ? "" : label,
      created,
      likenum: 0,
      repnum: 0,
      renum: 0,
      renoteOf,
    };
    notes.push(note);
    if (kind !== 1) {
      users[uid - 1].note++;
      users[uid - 1].labels[label] = (users[uid - 1].labels[label] ?? 0) + 1;
    }
    add(
      "notes",
      [
        "id",
        "user_id",
        "kind",
        "label",
        "content",
        "txt",
        "imgs",
        "video",
        "renote_id",
        "renum",
        "repnum",
        "likenum",
        "created_at",
        "noted_at",
      ],
      [
        n,
        uid,
        kind,
        note.label,
        txt ? `<p>${txt}</p>` : "",
        txt,
        n % 5 === 0 && !kind ? `/img/bench/${n}.jpg` : "",
        "",
        renoteOf?.id ?? null,
        0,
        0,
        0,
        created,
        created,
      ],
    );
    if (kind !== 1) add("note_tags", ["tag", "note_id", "created_at"], [tag, n, created]);
  }

  // Likes: three per note from pseudo-random users.
  for (const note of notes) {
    if (note.kind === 1) continue;
    const likers = new Set();
    while (likers.size < 3) likers.add(1 + Math.floor(rand() * USERS));
    for (const u of likers)
      add("likes", ["user_id", "kind", "target_id", "created_at"], [u, "note", note.id, note.created]);
    note.likenum = 3;
  }

  // Replies: a 20-deep chain under the newest note, and one reply on every third note.
  // Replies' ids in the range of rows made before worker ids (worker/lib/ids.ts: from 2^40, apart
  // from notes'), a multiple of USERS so the reader of the chain's reply n is still n % USERS.
  let rid = Math.ceil(2 ** 40 / USERS) * USERS;
  const focusNote = notes[notes.length - 1];
  let parent = null;
  for (let d = 0; d < DEPTH; d++) {
    rid++;
    add(
      "replies",
      ["id", "user_id", "note_id", "parent_reply_id", "content", "txt", "likenum", "repnum", "created_at"],
      [
        rid,
        1 + (d % USERS),
        focusNote.id,
        parent,
        `<p>depth ${d}</p>`,
        `depth ${d}`,
        0,
        d < DEPTH - 1 ? 1 : 0,
        focusNote.created + d,
      ],
    );
    if (parent === null) focusNote.repnum++;
    parent = rid;
  }
  const chainFocus = rid;
  for (const note of notes) {
    if (note.id % 3 !== 0 || note === focusNote || note.kind === 1) continue;
    rid++;
    add(
      "replies",
      ["id", "user_id", "note_id", "parent_reply_id", "content", "txt", "likenum", "repnum", "created_at"],
      [rid, 1 + (note.id % USERS), note.id, null, "<p>Nice.</p>", "Nice.", 0, 0, note.created + 1],
    );
    note.repnum++;
  }
  for (const note of notes) {
    // Counters written with the row would need a second pass; an UPDATE per changed note is batched below.
    note.dirty = note.dirty || note.likenum || note.repnum;
  }

  // Folders: four per user for the first 1000 users; some notes filed.
  let fid = 0;
  const folderRows = [];
  const folderUpdates = [];
  for (let u = 1; u <= Math.min(USERS, 1000); u++) {
    for (const type of TYPES) {
      fid++;
      users[u - 1].types[type] = (users[u - 1].types[type] ?? 0) + 1;
      add(
        "folders",
        [
          "id",
          "user_id",
          "type",
          "name",
          "slug",
          "descr",
          "link",
          "logo",
          "notenum",
          "noted_at",
          "likenum",
          "created_at",
        ],
        [fid, u, type, `${type} ${u}`, `${type.toLowerCase()}-${u}`, `A ${type} of user ${u}`, "", "", 0, 0, 0, T0],
      );
      folderRows.push({ id: fid, uid: u, notenum: 0, notedAt: 0, labels: {} });
    }
  }
  // Half of those users' own notes are filed into one of their folders (with the folder's counters).
  for (const note of notes) {
    if (note.kind === 1 || note.uid > Math.min(USERS, 1000) || rand() < 0.5) continue;
    const f = folderRows[(note.uid - 1) * TYPES.length + Math.floor(rand() * TYPES.length)];
    add(
      "folder_notes",
      ["folder_id", "note_id", "label", "note_created_at"],
      [f.id, note.id, note.label, note.created],
    );
    f.notenum++;
    f.notedAt = Math.max(f.notedAt, note.created);
    f.labels[note.label] = (f.labels[note.label] ?? 0) + 1;
  }
  for (const f of folderRows) {
    if (!f.notenum) continue;
    folderUpdates.push(`UPDATE folders SET notenum = ${f.notenum}, noted_at = ${f.notedAt} WHERE id = ${f.id};`);
    for (const [label, n] of Object.entries(f.labels))
      add("folder_labels", ["folder_id", "label", "n"], [f.id, label, n]);
  }

  // Bookmarks and notifications for user 1.
  for (let i = 0; i < 300; i++) {
    add(
      "bookmarks",
      ["user_id", "kind", "target_id", "created_at"],
      [1, "note", notes[(i * 31) % notes.length].id, T0 + i],
    );
    add(
      "notifications",
      ["user_id", "actor_id", "action", "tblname", "target_id", "extra", "created_at"],
      [1, 2 + (i % 50), "like", "note", notes[i].id, "", T0 + i],
    );
  }
  // users.noti_num is not set here: the notifications_unread_in trigger counts them in.

  for (const u of users) {
    add(
      "users",
      [
        "id",
        "username",
        "email",
        "fullname",
        "password_hash",
        "confirmed",
        "following_num",
        "follower_num",
        "note_num",
        "noti_num",
        "created_at",
      ],
      [
        u.id,
        `bench${u.id}`,
        `bench${u.id}@bench.test`,
        `Bench User ${u.id}`,
        PASSWORD_HASH,
        1,
        u.following,
        u.follower,
        u.note,
        u.noti,
        T0,
      ],
    );
    for (const [label, n] of Object.entries(u.labels)) add("user_labels", ["user_id", "label", "n"], [u.id, label, n]);
    for (const [type, n] of Object.entries(u.types)) add("user_types", ["user_id", "type", "n"], [u.id, type, n]);
  }

  // Order matters for foreign keys: users first.
  const ORDER = [
    "users",
    "user_labels",
    "user_types",
    "follows",
    "notes",
    "note_tags",
    "likes",
    "replies",
    "folders",
    "folder_notes",
    "folder_labels",
    "bookmarks",
    "notifications",
  ];
  // The counters the rows above moved, after the rows themselves.
  const counterUpdates = [];
  for (let i = 0; i < notes.length; i += 100) {
    const ids = notes.slice(i, i + 100).filter((n) => n.dirty);
    if (!ids.length) continue;
    counterUpdates.push(
      `UPDATE notes SET likenum = CASE id ${ids.map((n) => `WHEN ${n.id} THEN ${n.likenum}`).join(" ")} END, repnum = CASE id ${ids.map((n) => `WHEN ${n.id} THEN ${n.repnum}`).join(" ")} END, renum = CASE id ${ids.map((n) => `WHEN ${n.id} THEN ${n.renum}`).join(" ")} END WHERE id IN (${ids.map((n) => n.id).join(",")});`,
    );
  }
  return {
    users: USERS,
    tables,
    order: ORDER,
    tail: [...counterUpdates, ...folderUpdates],
    chainFocus,
    rareWord: RARE_WORD,
    focusNote: focusNote.id,
    focusAuthor: `bench${focusNote.uid}`,
  };
}
