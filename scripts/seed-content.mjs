// Demo notes, follows, likes and replies for `npm start`; idempotent (fixed ids, INSERT OR IGNORE),
// with every counter recounted from its rows at the end.
const NOTES = [
  [1, 1, "idea", "An engine that weaves algebraic patterns the way a loom weaves flowers. #computing #math"],
  [2, 2, "tip", "Name your variables for the reader, not the compiler. #craft"],
  [3, 3, "research", "Can machines think? Better question: can we tell? #ai"],
  [4, 4, "insight", "Check the trajectory by hand before you trust the machine. #math #space"],
  [5, 1, "story", "Notes on the Analytical Engine, part one: why cards, not wheels. #computing"],
  [6, 2, "how to", "Debugging, literally: a moth in relay 70. Keep the log book. #craft #history"],
  [7, 3, "learn", "Morphogenesis from two chemicals and a little patience. #biology"],
  [8, 4, "guide", "Orbital mechanics in one video, a good start for the curious. #space"],
];
const VIDEO = { 8: "dQw4w9WgXcQ" };
const FOLLOWS = [
  [1, 2],
  [1, 3],
  [2, 1],
  [2, 4],
  [3, 1],
  [4, 1],
  [4, 2],
];
const LIKES = [
  [2, 1],
  [3, 1],
  [4, 1],
  [1, 2],
  [3, 2],
  [1, 4],
  [2, 3],
];
const REPLIES = [
  [1, 2, 1, -1, "Beautiful way to put it."],
  [2, 1, 1, 1, "Thank you, Grace!"],
  [3, 3, 3, -3, "Perhaps the imitation is the thinking."],
];

export default ({ q }) => {
  const base = Date.UTC(2026, 10, 1);
  const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const html = (s) =>
    `<p>${esc(s).replace(/(^|\s)#([A-Za-z][A-Za-z0-9]*)/g, (_m, p, t) => `${p}<a href="/tag/${t.toLowerCase()}" class="hashtag">#${t}</a>`)}</p>`;
  const out = [];
  for (const [id, uid, label, text] of NOTES) {
    const at = base + id * 3_600_000;
    out.push(
      `INSERT OR IGNORE INTO notes (id, user_id, kind, label, content, txt, video, created_at, noted_at) VALUES (${id}, ${uid}, 0, ${q(label)}, ${q(html(text))}, ${q(text)}, ${q(VIDEO[id] ?? "")}, ${at}, ${at});`,
    );
    for (const m of text.matchAll(/#([A-Za-z][A-Za-z0-9]*)/g))
      out.push(
        `INSERT OR IGNORE INTO note_tags (tag, note_id, created_at) VALUES (${q(m[1].toLowerCase())}, ${id}, ${at});`,
      );
  }
  for (const [a, b] of FOLLOWS)
    out.push(`INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (${a}, ${b}, ${base});`);
  for (const [u, n] of LIKES)
    out.push(
      `INSERT OR IGNORE INTO likes (user_id, kind, target_id, created_at) VALUES (${u}, 'note', ${n}, ${base});`,
    );
  for (const [id, uid, note, parent, text] of REPLIES) {
    out.push(
      `INSERT OR IGNORE INTO replies (id, user_id, note_id, parent, content, txt, created_at) VALUES (${id}, ${uid}, ${note}, ${parent}, ${q(html(text))}, ${q(text)}, ${base + 86_400_000 + id});`,
    );
  }
  out.push(
    "UPDATE notes SET likenum = (SELECT count(*) FROM likes WHERE kind = 'note' AND target_id = notes.id), repnum = (SELECT count(*) FROM replies WHERE parent = -notes.id), renum = (SELECT count(*) FROM notes r WHERE r.renote_id = notes.id);",
    "UPDATE replies SET repnum = (SELECT count(*) FROM replies c WHERE c.parent = replies.id);",
    "UPDATE users SET note_num = (SELECT count(*) FROM notes WHERE user_id = users.id AND kind != 1), following_num = (SELECT count(*) FROM follows WHERE follower_id = users.id), follower_num = (SELECT count(*) FROM follows WHERE followee_id = users.id);",
    "INSERT OR IGNORE INTO user_labels (user_id, label, n) SELECT user_id, label, 0 FROM notes WHERE kind != 1 AND label != '' GROUP BY user_id, label;",
    "UPDATE user_labels SET n = (SELECT count(*) FROM notes WHERE notes.user_id = user_labels.user_id AND notes.label = user_labels.label AND kind != 1);",
  );
  return out;
};
