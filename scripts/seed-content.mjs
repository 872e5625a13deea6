// Demo notes, follows, likes, replies (two levels deep), renotes, quotes and notifications for
// `npm start`: a network that looks lived in, dated over the last days relative to now. Idempotent
// (fixed ids and unique keys, INSERT OR IGNORE); seed.mjs recounts every counter at the end.
const TEXTS = [
  ["idea", "An engine that weaves algebraic patterns the way a loom weaves flowers. #computing #math"],
  ["tip", "Name your variables for the reader, not the compiler. #craft"],
  ["research", "Can machines think? Better question: can we tell? #ai"],
  ["insight", "Check the trajectory by hand before you trust the machine. #math #space"],
  ["story", "Notes on the Analytical Engine, part one: why cards, not wheels. #computing"],
  ["how to", "Debugging, literally: a moth in relay 70. Keep the log book. #craft #history"],
  ["learn", "Morphogenesis from two chemicals and a little patience. #biology"],
  ["guide", "Orbital mechanics in one video, a good start for the curious. #space"],
  ["best practice", "Priority displays saved the landing: design for the alarm you hope never rings. #apollo #craft"],
  ["thought", "The web is for everyone. Link generously, cite your sources. #web"],
  ["idea", "Frequency hopping: two pianos rolls in sync, and a signal nobody can jam. #radio"],
  ["tip", "Small tools that do one thing, joined by pipes, outlive the big ones. #unix"],
  ["insight", "A spanning tree is a promise that every bridge knows one way home. #networks"],
  ["learn", "Premature optimization is the root of much evil; measured optimization is engineering. #craft"],
  ["beauty", "Sunrise over the launch pad this morning. Worth the 4 a.m. alarm. #space"],
  ["chill", "Weekend reading: a stack of punched cards and a pot of tea."],
  ["how to", "Write the test that fails first. Then make it pass. Then make it clear. #craft"],
  ["research", "Notes toward a mathematical theory of pattern in living things. #biology #math"],
  ["story", "The first compiler was met with: computers can only do arithmetic. It did more. #history"],
  ["useful", "Checklist before a release: logs readable, alarms named, rollback rehearsed. #craft"],
  ["awesome", "Our reading group finished TAOCP volume 1. Next: the exercises rated 50. #math"],
  ["thought", "Hypertext was never about documents; it was about people finding each other. #web"],
  ["idea", "What if every note could be filed into a portfolio that reads like a CV? #notex"],
  ["knowledge", "Bridges learn the network by listening before they speak. #networks"],
  ["solution", "Rounding errors in the re-entry table: carry one more digit and check the last. #math"],
  ["guide", "How I keep a lab notebook: date, question, method, result, next step. #craft"],
  ["cool", "Found a working card punch at the museum today. Still clacks. #history"],
  ["tip", "Typeset your equations once, properly; readers pay for every shortcut. #math"],
  ["learn", "C in a weekend: pointers are addresses with opinions. #unix"],
  ["insight", "The interesting failures are the ones your system reports about itself. #apollo"],
  ["memo", "Reminder to self: the signal is the schedule, not the frequency. #radio"],
  ["research", "Zebra stripes, leopard spots: same equations, different speeds. #biology"],
  ["story", "The day the web server had a sticker: do not power down. #web #history"],
  ["hack", "Replace a magic number with a named constant and a comment saying why. #craft"],
  ["idea", "A protocol is a kindness to the next engineer. #networks"],
  ["beauty", "Moonlight on the orbital diagrams pinned above my desk. #space"],
  ["trick", "Binary search your bug: halve the commits until one remains. #craft"],
  ["thought", "Poetical science: imagination is the discovering faculty. #computing"],
  ["useful", "Literate programming: write for people first, the machine will follow. #craft"],
  ["a.i.", "Teaching a machine is mostly teaching ourselves what we meant. #ai"],
  ["note", "New to NoteX? File a note into an x-folder and your profile starts to read like a CV. #notex"],
  ["insight", "Networks fail at the edges; design the edges first. #networks"],
  ["tip", "A good error message says what happened, why, and what to do next. #craft"],
  ["story", "Notes on the Analytical Engine, part two: the store and the mill. #computing"],
];
/** Who wrote each of TEXTS (users' ids, seed.mjs). */
const AUTHORS = [
  1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 4, 1, 5, 3, 2, 5, 10, 6, 7, 9, 4, 2, 8, 10, 8, 5, 7, 3, 6, 8, 9, 4, 2, 1,
  10, 3, 6, 9, 7, 1,
];
/** Notes that carry a photo (note index → number of photos, each drawn in seed-images.mjs). */
const PHOTOS = { 4: 1, 14: 2, 26: 1, 35: 1, 43: 1 };
const PALETTES = [
  ["#7dd3fc", "#1e3a8a"],
  ["#fdba74", "#7c2d12"],
  ["#c4b5fd", "#312e81"],
  ["#86efac", "#14532d"],
  ["#fda4af", "#881337"],
  ["#fde68a", "#78350f"],
];
const VIDEO = { 7: "dQw4w9WgXcQ" };
const FIRST_NOTE = 1;
// Fixed ids, as rows made before worker ids (worker/lib/ids.ts): replies from 2^40, apart from notes.
const FIRST_REPLY = 2 ** 40 + 1;
const FIRST_RENOTE = 101;
const HOUR = 3_600_000;

export default ({ q, users, images, keyOf, scene, now }) => {
  const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const html = (s) =>
    `<p>${esc(s).replace(/(^|\s)#([A-Za-z][A-Za-z0-9]*)/g, (_m, p, t) => `${p}<a href="/tag/${t.toLowerCase()}" class="hashtag">#${t}</a>`)}</p>`;
  const n = users.length;
  const out = [];
  // Notes: one author after another, newest first from an hour ago back over about six days.
  const notes = TEXTS.map(([label, text], i) => ({
    id: FIRST_NOTE + i,
    uid: AUTHORS[i],
    label,
    text,
    at: now - HOUR - (TEXTS.length - 1 - i) * 3.2 * HOUR,
  }));
  for (const note of notes) {
    const i = note.id - FIRST_NOTE;
    const imgs = [];
    for (let k = 0; k < (PHOTOS[i] ?? 0); k++) {
      const key = keyOf(note.uid, "note", `photo-${i}-${k}`);
      const [sky, ground] = PALETTES[(i + k) % PALETTES.length];
      images.push({ key, uid: note.uid, purpose: "note", draw: () => scene(sky, ground, i + k) });
      imgs.push(`/img/${key}`);
    }
    out.push(
      `INSERT OR IGNORE INTO notes (id, user_id, kind, label, content, txt, imgs, video, created_at, noted_at) VALUES (${note.id}, ${note.uid}, 0, ${q(note.label)}, ${q(html(note.text))}, ${q(note.text)}, ${q(imgs.join(";"))}, ${q(VIDEO[i] ?? "")}, ${note.at}, ${note.at});`,
    );
    for (const m of note.text.matchAll(/#([A-Za-z][A-Za-z0-9]*)/g))
      out.push(
        `INSERT OR IGNORE INTO note_tags (tag, note_id, created_at) VALUES (${q(m[1].toLowerCase())}, ${note.id}, ${note.at});`,
      );
  }
  // Follows: everyone follows the next three people around the circle, and Ada follows all.
  for (const a of users)
    for (const b of users) {
      const ahead = (b.id - a.id + n) % n;
      if (a.id !== b.id && (ahead <= 3 || a.id === 1))
        out.push(
          `INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (${a.id}, ${b.id}, ${now - 7 * 24 * HOUR + a.id * HOUR});`,
        );
    }
  // Likes: each note liked by a few of the people after its author (more for some).
  for (const note of notes) {
    const likers = 1 + ((note.id * 7) % 5);
    for (let k = 1; k <= likers; k++) {
      const uid = users[(note.uid - 1 + k * 3) % n].id;
      if (uid !== note.uid)
        out.push(
          `INSERT OR IGNORE INTO likes (user_id, kind, target_id, created_at) VALUES (${uid}, 'note', ${note.id}, ${note.at + k * 600_000});`,
        );
    }
  }
  // Conversations: a reply, a reply to it, and a reply to that, under every third note.
  const LINES = [
    ["Beautiful way to put it.", "Thank you! It took a while to find the words.", "Worth it: I will borrow them."],
    ["Does this hold at scale?", "It held for us at a few thousand; beyond, measure.", "Measured: it holds."],
    ["Saving this for the team.", "Tell me how it goes.", "It went well, they asked for more."],
    ["I would add one step: write it down.", "Agreed, the notebook is the step.", "And date every page."],
  ];
  let rid = FIRST_REPLY;
  const reply = (uid, note, parent, text, at) => {
    out.push(
      `INSERT OR IGNORE INTO replies (id, user_id, note_id, parent_reply_id, content, txt, created_at) VALUES (${rid}, ${uid}, ${note}, ${parent ?? "NULL"}, ${q(html(text))}, ${q(text)}, ${at});`,
    );
    return rid++;
  };
  notes.forEach((note, i) => {
    if (i % 3 !== 0) return;
    const [a, b, c] = LINES[(i / 3) % LINES.length];
    const other = users[(note.uid + 1) % n].id;
    const third = users[(note.uid + 4) % n].id;
    const r1 = reply(other, note.id, null, a, note.at + 20 * 60_000);
    const r2 = reply(note.uid, note.id, r1, b, note.at + 45 * 60_000);
    reply(third, note.id, r2, c, note.at + 80 * 60_000);
    if (i % 6 === 0) reply(third, note.id, null, "Following this thread.", note.at + 90 * 60_000);
  });
  // Renotes and quotes of some notes by people who follow their authors.
  let nid = FIRST_RENOTE;
  notes.forEach((note, i) => {
    if (i % 4 !== 1) return;
    const by = users[(note.uid + 2) % n].id;
    const at = note.at + 2 * HOUR;
    const quote = i % 8 === 1;
    const text = quote ? "This, exactly. Adding it to my reading list. #notex" : "";
    out.push(
      `INSERT OR IGNORE INTO notes (id, user_id, kind, label, content, txt, renote_id, created_at, noted_at) VALUES (${nid++}, ${by}, ${quote ? 2 : 1}, ${q(quote ? "thought" : "")}, ${q(quote ? html(text) : "")}, ${q(text)}, ${note.id}, ${Math.min(at, now - 60_000)}, ${Math.min(at, now - 60_000)});`,
    );
  });
  // What those would have told people: likes, replies, follows, renotes and quotes, as the app writes them.
  const seeded = `between ${FIRST_NOTE} and ${FIRST_RENOTE + 99}`;
  out.push(
    `INSERT OR IGNORE INTO notifications (user_id, actor_id, action, tblname, target_id, created_at) SELECT n.user_id, l.user_id, 'like', 'note', n.id, l.created_at FROM likes l JOIN notes n ON n.id = l.target_id WHERE l.kind = 'note' AND n.id ${seeded} AND l.user_id != n.user_id;`,
    `INSERT OR IGNORE INTO notifications (user_id, actor_id, action, tblname, target_id, created_at) SELECT f.followee_id, f.follower_id, 'follow', '', 0, f.created_at FROM follows f WHERE f.follower_id <= ${n} AND f.followee_id <= ${n};`,
    `INSERT OR IGNORE INTO notifications (user_id, actor_id, action, tblname, target_id, extra, created_at) SELECT coalesce((SELECT p.user_id FROM replies p WHERE p.id = r.parent_reply_id), (SELECT o.user_id FROM notes o WHERE o.id = r.note_id)), r.user_id, 'reply', 'reply', r.id, substr(r.txt, 1, 100), r.created_at FROM replies r WHERE r.id < ${rid} AND r.note_id ${seeded} AND r.user_id != coalesce((SELECT p.user_id FROM replies p WHERE p.id = r.parent_reply_id), (SELECT o.user_id FROM notes o WHERE o.id = r.note_id));`,
    `INSERT OR IGNORE INTO notifications (user_id, actor_id, action, tblname, target_id, extra, created_at) SELECT o.user_id, r.user_id, CASE r.kind WHEN 1 THEN 'renote' ELSE 'quote' END, 'note', CASE r.kind WHEN 1 THEN o.id ELSE r.id END, substr(r.txt, 1, 100), r.created_at FROM notes r JOIN notes o ON o.id = r.renote_id WHERE r.id ${seeded} AND r.kind IN (1, 2) AND r.user_id != o.user_id;`,
  );
  return out;
};
