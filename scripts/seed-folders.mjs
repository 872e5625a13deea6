// Demo x-folders of every common type (experience types with a role and months, as a CV reads),
// each holding some of the demo notes; counters are made exact by seed.mjs at the end.
// "id|user|type|name|description|role|start|end" (the slug is made from the name, as the app does).
const FOLDERS = [
  "1|1|Project|Analytical Engine|Notes toward the first general-purpose computer.|Author of the Notes|1842-01|1843-09",
  "2|1|Skill|Mathematics|Bernoulli numbers and beyond.|||",
  "3|2|Company|US Navy|Rear Admiral; computing pioneer.|Rear Admiral|1943-12|1986-08",
  "4|2|Skill|Compilers|From A-0 to COBOL.|||",
  "5|3|School|King's College, Cambridge|Mathematics, then computable numbers.|Fellow|1931-10|1936-09",
  "6|4|Company|NASA|Flight research and orbital mechanics.|Research mathematician|1953-06|1986-05",
  "7|5|Organization|MIT Instrumentation Laboratory|Apollo guidance software.|Director of software engineering|1961-05|1972-12",
  "8|6|Project|WorldWideWeb|The first browser and editor.|Inventor|1989-03|1991-08",
  "9|7|Certification|US Patent 2,292,387|Secret communication system.|Co-inventor|1942-08|",
  "10|8|Course|Unix for newcomers|Small tools, pipes, and the manual.|Teacher|2024-01|2024-06",
  "11|9|Subject|Networking|Bridges, routing and resilience.|||",
  "12|10|Album|Typesetting samples|Pages I am proud of.|||",
  "13|10|Language|English|Native; writing daily.|||",
  "14|4|Travel|Cape Canaveral|Launch mornings.|||",
  "15|6|Folder|Reading list|Things worth a second read.|||",
].map((row) => row.split("|"));
const slugOf = (name) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
// [folder, note]: a folder holds notes of its owner (seed-content.mjs AUTHORS).
const FILED = [
  [1, 1],
  [1, 5],
  [1, 44],
  [2, 1],
  [2, 38],
  [3, 2],
  [3, 6],
  [4, 19],
  [4, 37],
  [5, 3],
  [5, 18],
  [6, 4],
  [6, 8],
  [6, 25],
  [7, 9],
  [7, 17],
  [7, 30],
  [8, 10],
  [8, 22],
  [8, 33],
  [9, 11],
  [9, 31],
  [10, 12],
  [10, 29],
  [11, 13],
  [11, 24],
  [11, 35],
  [11, 42],
  [12, 21],
  [12, 28],
  [13, 39],
  [14, 15],
  [14, 36],
  [15, 41],
];

export default ({ q, now }) => {
  const out = [];
  for (const [id, uid, type, name, descr, role, start, end] of FOLDERS) {
    out.push(
      `INSERT OR IGNORE INTO folders (id, user_id, type, name, slug, descr, role, start_month, end_month, created_at) VALUES (${id}, ${uid}, ${q(type)}, ${q(name)}, ${q(slugOf(name))}, ${q(descr)}, ${q(role)}, ${q(start)}, ${q(end)}, ${now - 8 * 86_400_000});`,
    );
  }
  for (const [folder, note] of FILED) {
    out.push(
      `INSERT OR IGNORE INTO folder_notes (folder_id, note_id, label, note_created_at) SELECT ${folder}, n.id, n.label, n.created_at FROM notes n JOIN folders f ON f.id = ${folder} AND f.user_id = n.user_id WHERE n.id = ${note};`,
    );
  }
  return out;
};
