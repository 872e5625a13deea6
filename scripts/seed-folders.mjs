// Demo x-folders for the demo users, with some of their notes filed; counters recounted from rows.
const FOLDERS = [
  [1, 1, "Project", "Analytical Engine", "analytical-engine", "Notes toward the first general-purpose computer."],
  [2, 1, "Skill", "Mathematics", "mathematics", ""],
  [3, 2, "Company", "US Navy", "us-navy", "Rear Admiral; computing pioneer."],
  [4, 2, "Skill", "Compilers", "compilers", ""],
  [5, 3, "School", "King's College, Cambridge", "kings-college-cambridge", ""],
  [6, 4, "Company", "NASA", "nasa", "Flight research and orbital mechanics."],
];
const FILED = [
  [1, 1],
  [1, 5],
  [2, 1],
  [3, 6],
  [4, 2],
  [5, 3],
  [6, 4],
  [6, 8],
];

export default ({ q }) => {
  const out = [];
  for (const [id, uid, type, name, slug, descr] of FOLDERS) {
    out.push(
      `INSERT OR IGNORE INTO folders (id, user_id, type, name, slug, descr, created_at) VALUES (${id}, ${uid}, ${q(type)}, ${q(name)}, ${q(slug)}, ${q(descr)}, ${Date.UTC(2026, 9, 1)});`,
    );
  }
  for (const [folder, note] of FILED) {
    out.push(
      `INSERT OR IGNORE INTO folder_notes (folder_id, note_id, label, note_created_at) SELECT ${folder}, id, label, created_at FROM notes WHERE id = ${note};`,
    );
  }
  out.push(
    "UPDATE folders SET notenum = (SELECT count(*) FROM folder_notes WHERE folder_id = folders.id), noted_at = (SELECT coalesce(max(note_created_at), 0) FROM folder_notes WHERE folder_id = folders.id);",
    "DELETE FROM folder_labels WHERE folder_id IN (SELECT id FROM folders);",
    "INSERT INTO folder_labels (folder_id, label, n) SELECT folder_id, label, count(*) FROM folder_notes WHERE label != '' GROUP BY folder_id, label;",
    "INSERT OR IGNORE INTO user_types (user_id, type, n) SELECT user_id, type, 0 FROM folders GROUP BY user_id, type;",
    "UPDATE user_types SET n = (SELECT count(*) FROM folders WHERE folders.user_id = user_types.user_id AND folders.type = user_types.type);",
  );
  return out;
};
