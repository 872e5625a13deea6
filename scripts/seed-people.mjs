// More demo people for `npm start`, so a newcomer's welcome page has a dozen people to suggest in
// every topic (worker/features/interests/topics.ts): each with a face, a bio, a few notes under the
// x-labels of one or two topics, and followers of their own (some more than others). Idempotent
// (fixed ids and unique keys, INSERT OR IGNORE); seed.mjs recounts every counter at the end.
import { avatar, cover } from "./seed-images.mjs";

// [username, full name, bio, avatar colours, notes as [x-label, text]]
export const PEOPLE = [
  [
    "priyanair",
    "Priya Nair",
    "ML engineer. I evaluate language models so you don't have to.",
    "#0f766e",
    "#5eead4",
    [
      ["a.i.", "A benchmark you can't reproduce is a press release. Publish the prompts. #ai"],
      ["research", "Our eval set leaked into training data. How we found out, and the test that catches it now. #ai"],
      ["a.i.", "Small models, fine-tuned well, beat big ones on narrow jobs more often than you'd think. #ai"],
    ],
  ],
  [
    "samokafor",
    "Samuel Okafor",
    "Data scientist in public health. Charts, caveats, coffee.",
    "#1e40af",
    "#93c5fd",
    [
      ["research", "Every chart should answer: compared to what? #data"],
      ["learn", "Three weeks learning survival analysis. The censoring finally clicked. #data"],
    ],
  ],
  [
    "leachen",
    "Lea Chen",
    "Product designer. Interfaces that explain themselves.",
    "#be185d",
    "#f9a8d4",
    [
      ["tip", "Write the error message before you design the form. #design"],
      ["best practice", "Empty states are onboarding. Say what goes here and how to fill it. #design"],
      ["idea", "What if settings pages showed what each switch changed last week? #design"],
    ],
  ],
  [
    "mateoruiz",
    "Mateo Ruiz",
    "Backend engineer. Postgres, queues and on-call stories.",
    "#854d0e",
    "#fcd34d",
    [
      [
        "how to",
        "How to add a column to a hot table without locking it: add, backfill in batches, then constrain. #databases",
      ],
      ["story", "3 a.m. page: the queue was fine, the clock was wrong. #oncall"],
    ],
  ],
  [
    "aminahassan",
    "Amina Hassan",
    "Engineering manager. Hiring, feedback, and fewer meetings.",
    "#6d28d9",
    "#c4b5fd",
    [
      ["best practice", "Feedback within a day, in private, about the work and not the person. #management"],
      ["insight", "The team that writes things down argues less and ships more. #management"],
    ],
  ],
  [
    "jonasberg",
    "Jonas Berg",
    "Teaching CS at a community college. Learning in public.",
    "#166534",
    "#86efac",
    [
      ["learn", "Students learn recursion faster from drawing call stacks than from any analogy. #teaching"],
      ["useful", "A one-page cheat sheet for git undo: reset, revert, restore, and when. #git"],
    ],
  ],
  [
    "yukitanaka",
    "Yuki Tanaka",
    "Robotics researcher. Small robots, big datasets.",
    "#0e7490",
    "#67e8f9",
    [
      ["a.i.", "A robot arm learned to fold towels from 200 demonstrations. Socks remain unsolved. #robotics #ai"],
      ["research", "Sim-to-real gap, measured: friction is the liar. #robotics"],
    ],
  ],
  [
    "noahwilliams",
    "Noah Williams",
    "Freelance writer on tech and work. Story first.",
    "#9a3412",
    "#fdba74",
    [
      [
        "story",
        "Interviewed a COBOL programmer who's been on call since 1987. She has never missed a payroll. #history",
      ],
      ["memo", "Draft, sleep, cut a third. Works for articles and for emails. #writing"],
    ],
  ],
  [
    "sofiarossi",
    "Sofia Rossi",
    "Photographer and UX researcher. Light, people, patterns.",
    "#831843",
    "#fda4af",
    [
      ["beauty", "Morning light through the studio blinds, shot on a phone. #photography"],
      ["research", "Five usability sessions found what five hundred survey answers missed. #ux"],
    ],
  ],
  [
    "kwameasante",
    "Kwame Asante",
    "Security engineer. Threat models for normal humans.",
    "#1f2937",
    "#9ca3af",
    [
      ["tip", "Turn on passkeys for your email first: it's the key to every other account. #security"],
      [
        "solution",
        "Leaked token in a public repo? Revoke first, then rewrite history, then write the postmortem. #security",
      ],
      ["hack", "A password manager's shared vault beats the team spreadsheet every single time. #security"],
    ],
  ],
  [
    "elenapetrova",
    "Elena Petrova",
    "Quant turned teacher. Maths you can use on Monday.",
    "#3730a3",
    "#a5b4fc",
    [
      ["learn", "Expected value, explained with a bus stop and a coin. #math"],
      ["guide", "A guide to reading a regression table without fooling yourself. #math #data"],
    ],
  ],
  [
    "danielkim",
    "Daniel Kim",
    "Founder of a two-person startup. Ideas, mistakes, numbers.",
    "#b45309",
    "#fde68a",
    [
      ["idea", "A CRM that reads like a notebook, not a spreadsheet. Who wants it? #startups"],
      ["thought", "Month six: revenue is a lagging indicator, conversations are a leading one. #startups"],
    ],
  ],
  [
    "fatimazahra",
    "Fatima Zahra",
    "AI policy researcher. What models should and should not do.",
    "#065f46",
    "#6ee7b7",
    [
      ["a.i.", "Disclosure rules work when they name who must tell whom, and when. #ai #policy"],
      ["insight", "Most AI harms I study are old harms with faster tools. #policy"],
    ],
  ],
  [
    "oliverbrown",
    "Oliver Brown",
    "Site reliability engineer. Calm pages, boring deploys.",
    "#334155",
    "#94a3b8",
    [
      ["solution", "Flaky deploys fixed by one rule: every change behind a flag, every flag with an owner. #sre"],
      ["how to", "How to write a runbook people use at 3 a.m.: one page, commands to copy, a way back. #sre"],
    ],
  ],
  [
    "mariasilva",
    "Maria Silva",
    "Nurse learning to code. Notes from both shifts.",
    "#9d174d",
    "#f472b6",
    [
      ["learn", "Week ten of learning Python between night shifts: I automated our ward's rota. #learning"],
      ["story", "The best bug report I ever wrote was a handover note. #nursing"],
    ],
  ],
  [
    "tomasnovak",
    "Tomas Novak",
    "Woodworker and web developer. Both need sharp tools.",
    "#78350f",
    "#d6d3d1",
    [
      ["chill", "Sunday in the shop: a walnut tray and no notifications. #woodworking"],
      ["cool", "Hand-cut dovetails, try number twelve. Finally tight. #woodworking"],
      ["tip", "Sharpen before you need to, in code and in wood. #craft"],
    ],
  ],
];
const FIRST_ID = 11;
const FIRST_NOTE = 301;
const HOUR = 3_600_000;

export default ({ q, images, keyOf, password, now }) => {
  const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const html = (s) =>
    `<p>${esc(s).replace(/(^|\s)#([A-Za-z][A-Za-z0-9]*)/g, (_m, p, t) => `${p}<a href="/tag/${t.toLowerCase()}" class="hashtag">#${t}</a>`)}</p>`;
  const out = [];
  // After every person is in: followers may be people listed later.
  const follows = [];
  let nid = FIRST_NOTE;
  const count = PEOPLE.reduce((n, p) => n + p[5].length, 0);
  PEOPLE.forEach(([username, fullname, descr, from, to, notes], i) => {
    const id = FIRST_ID + i;
    const face = keyOf(id, "avatar", "face");
    const hills = keyOf(id, "cover", "hills");
    images.push({ key: face, uid: id, purpose: "avatar", draw: () => avatar(from, to, id) });
    images.push({ key: hills, uid: id, purpose: "cover", draw: () => cover(to, from, id) });
    out.push(
      `INSERT OR IGNORE INTO users (id, username, email, fullname, password_hash, descr, avatar, cover, confirmed) VALUES (${id}, ${q(username)}, ${q(`${username}@notex.dev`)}, ${q(fullname)}, ${q(password)}, ${q(descr)}, ${q(`/img/${face}`)}, ${q(`/img/${hills}`)}, 1);`,
    );
    for (const [label, text] of notes) {
      // Spread between the other demo notes over the last six days, none newer than two hours.
      const at = now - 2 * HOUR - (count - 1 - (nid - FIRST_NOTE)) * 3.5 * HOUR;
      out.push(
        `INSERT OR IGNORE INTO notes (id, user_id, kind, label, content, txt, created_at, noted_at) VALUES (${nid}, ${id}, 0, ${q(label)}, ${q(html(text))}, ${q(text)}, ${at}, ${at});`,
      );
      for (const m of text.matchAll(/#([A-Za-z][A-Za-z0-9]*)/g))
        out.push(
          `INSERT OR IGNORE INTO note_tags (tag, note_id, created_at) VALUES (${q(m[1].toLowerCase())}, ${nid}, ${at});`,
        );
      nid++;
    }
    // Followers: some of the first demo people and of each other, more for some than for others.
    for (let k = 1; k <= 1 + ((i * 5) % 7); k++) {
      const follower = k % 2 ? 1 + ((i + k) % 10) : FIRST_ID + ((i + k) % PEOPLE.length);
      if (follower !== id)
        follows.push(
          `INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (${follower}, ${id}, ${now - 5 * 24 * HOUR + k * HOUR});`,
        );
    }
  });
  return [...out, ...follows];
};
