// Each user-visible action is one function in its feature folder, and every door that offers the
// action calls that function: a page (its form posts to an /actions route, which calls the /v1
// route through the typed client, decision 031), the /v1 route, a Mastodon app's route, the inbox
// (another server's activity), an import and a move. This is the list of doors per action. It fails
// when a door stops calling its action (or a door is added elsewhere without being listed here),
// and when the write an action wraps is imported by anything but its action, which would be a
// door deciding for itself what is written, notified, counted and delivered. What each action
// does through each door is compared in tests/api/one-path*.test.ts.
import { describe, expect, it } from "vitest";
import { SOURCES, sourceOf } from "./sources";

type Door = "page" | "/v1" | "Mastodon" | "inbox" | "import" | "move";
/** A door in the worker names the file that imports and calls the action (`fn` when it calls the
 * action through a wrapper of the action's own module); a page names its form's action route and
 * the /v1 call it makes there. */
type Doors = Partial<Record<Door, string | { file: string; calls?: string; fn?: string }>>;

interface Action {
  action: string;
  /** The action's module (under worker/features) and the function every door calls. */
  module: string;
  fn: string;
  doors: Doors;
}

const F = "worker/features";
const ACTIONS: Action[] = [
  {
    action: "post",
    module: "notes/post.action",
    fn: "postAction",
    doors: {
      page: { file: "app/routes/actions.note.tsx", calls: "api.v1.notes.$post" },
      "/v1": `${F}/notes/notes.routes.ts`,
      Mastodon: `${F}/mastodon/compose.service.ts`,
      inbox: `${F}/federation/receive.ts`,
    },
  },
  {
    action: "edit a note",
    module: "notes/edit.action",
    fn: "editNoteAction",
    doors: {
      page: { file: "app/routes/actions.note.tsx", calls: "api.v1.notes.$patch" },
      "/v1": `${F}/notes/notes.routes.ts`,
      Mastodon: `${F}/mastodon/compose.service.ts`,
      inbox: `${F}/federation/receive.ts`,
    },
  },
  {
    action: "edit a reply",
    module: "notes/edit.action",
    fn: "editReplyAction",
    doors: {
      page: { file: "app/routes/actions.reply.tsx", calls: "api.v1.replies.$patch" },
      "/v1": `${F}/replies/replies.routes.ts`,
      Mastodon: `${F}/mastodon/compose.service.ts`,
      inbox: `${F}/federation/receive.ts`,
    },
  },
  {
    action: "delete a note or a reply",
    module: "notes/delete.action",
    fn: "deletePost",
    doors: {
      page: { file: "app/routes/actions.note.tsx", calls: 'api.v1.notes[":id"].$delete' },
      "/v1": `${F}/notes/notes.routes.ts`,
      Mastodon: `${F}/mastodon/compose.service.ts`,
      inbox: `${F}/federation/inbox.ts`,
    },
  },
  {
    action: "delete a reply (its own /v1 route)",
    module: "notes/delete.action",
    fn: "deletePost",
    doors: {
      page: { file: "app/routes/actions.reply.tsx", calls: 'api.v1.replies[":id"].$delete' },
      "/v1": `${F}/replies/replies.routes.ts`,
    },
  },
  {
    action: "reply",
    module: "replies/reply.action",
    fn: "replyAction",
    doors: {
      page: { file: "app/routes/actions.reply.tsx", calls: "api.v1.replies.$post" },
      "/v1": `${F}/replies/replies.routes.ts`,
      Mastodon: `${F}/mastodon/compose.service.ts`,
      inbox: `${F}/federation/receive.ts`,
    },
  },
  {
    action: "like and unlike (every counted kind with a table of its own)",
    module: "interactions/rows.action",
    fn: "rowAction",
    doors: {
      page: { file: "app/routes/actions.like.tsx", calls: "api.v1.likes" },
      "/v1": `${F}/interactions/interactions.routes.ts`,
      Mastodon: `${F}/mastodon/statuses.routes.ts`,
      inbox: `${F}/federation/inbox.ts`,
    },
  },
  {
    action: "renote and its undo",
    module: "notes/renote.action",
    fn: "renoteAction",
    doors: {
      page: { file: "app/routes/actions.renote.tsx", calls: "api.v1.renotes.$post" },
      "/v1": `${F}/notes/notes.routes.ts`,
      Mastodon: `${F}/mastodon/statuses.routes.ts`,
      inbox: `${F}/federation/inbox.ts`,
    },
  },
  {
    action: "quote",
    module: "notes/renote.action",
    fn: "quoteAction",
    doors: {
      page: { file: "app/routes/actions.renote.tsx", calls: "quote: true" },
      "/v1": `${F}/notes/notes.routes.ts`,
      Mastodon: `${F}/mastodon/compose.service.ts`,
    },
  },
  {
    // A bookmark tells nobody and counts nothing: its one function is the write itself, which
    // /v1 and an import send alone (`mark`) and a Mastodon app sends with the status it answers.
    action: "bookmark",
    module: "interactions/interactions.service",
    fn: "markWrite",
    doors: {
      page: { file: "app/routes/actions.bookmark.tsx", calls: "api.v1.bookmarks" },
      "/v1": { file: `${F}/interactions/interactions.routes.ts`, fn: "mark" },
      Mastodon: `${F}/mastodon/statuses.routes.ts`,
    },
  },
  {
    action: "follow and unfollow",
    module: "follows/follow.action",
    fn: "followAction",
    doors: {
      page: { file: "app/routes/actions.follow.tsx", calls: "api.v1.follows" },
      "/v1": `${F}/follows/follows.routes.ts`,
      Mastodon: `${F}/mastodon/accounts.routes.ts`,
      inbox: `${F}/federation/inbox.ts`,
      import: `${F}/imports/mastodon-kinds.ts`,
      move: `${F}/moves/followers.ts`,
    },
  },
  {
    action: "block and unblock",
    module: "safety/block.action",
    fn: "blockAction",
    doors: {
      page: { file: "app/routes/actions.safety.tsx", calls: '"blocks"' },
      "/v1": `${F}/safety/safety.routes.ts`,
      Mastodon: `${F}/mastodon/accounts.routes.ts`,
      inbox: `${F}/federation/inbox.ts`,
      import: `${F}/imports/mastodon-kinds.ts`,
    },
  },
  {
    action: "mute and unmute",
    module: "safety/block.action",
    fn: "muteAction",
    doors: {
      page: { file: "app/routes/actions.safety.tsx", calls: '"mutes"' },
      "/v1": `${F}/safety/safety.routes.ts`,
      Mastodon: `${F}/mastodon/accounts.routes.ts`,
      import: `${F}/imports/mastodon-kinds.ts`,
    },
  },
  {
    action: "block a server",
    module: "safety/domain-block.action",
    fn: "blockServerAction",
    doors: {
      page: { file: "app/routes/settings_.domains.tsx", calls: '"/v1/domain-blocks"' },
      "/v1": `${F}/safety/domain-blocks.routes.ts`,
      Mastodon: `${F}/mastodon/domain-blocks.routes.ts`,
      import: `${F}/imports/mastodon-kinds.ts`,
    },
  },
  {
    action: "report",
    module: "reports/report.action",
    fn: "reportAction",
    doors: {
      page: { file: "app/routes/actions.report.tsx", calls: "v1.reports.$post" },
      "/v1": `${F}/reports/reports.routes.ts`,
      Mastodon: `${F}/mastodon/people.routes.ts`,
      inbox: `${F}/federation/inbox.ts`,
    },
  },
  {
    action: "profile edit",
    module: "users/profile.action",
    fn: "editProfile",
    doors: {
      page: { file: "app/routes/actions.profile.tsx", calls: "api.v1.users.$patch" },
      "/v1": `${F}/users/users.routes.ts`,
      Mastodon: `${F}/mastodon/accounts.routes.ts`,
      import: `${F}/imports/archive/profile.ts`,
    },
  },
  {
    // Mastodon's client API has no account deletion; another server's Delete of its actor
    // removes that person's copy here the same way.
    action: "account delete",
    module: "accounts/delete.service",
    fn: "deleteAccount",
    doors: {
      page: { file: "app/routes/settings.tsx", calls: "v1.users.$delete" },
      "/v1": `${F}/accounts/accounts.routes.ts`,
      inbox: `${F}/federation/inbox.ts`,
    },
  },
  {
    action: "moderator hide, restore and suspend",
    module: "safety/moderate.action",
    fn: "moderate",
    doors: {
      page: { file: "app/routes/moderation.tsx", calls: "v1.moderation.actions.$post" },
      "/v1": `${F}/safety/safety.routes.ts`,
    },
  },
];

/** The writes the actions wrap: each is imported by its action alone. */
const WRAPPED: { module: string; names: string[]; action: string }[] = [
  { module: "follows/follows.service", names: ["follow"], action: "follows/follow.action" },
  { module: "interactions/rows.service", names: ["rowWrite"], action: "interactions/rows.action" },
  { module: "notes/write.service", names: ["prepareNote"], action: "notes/post.action" },
  { module: "notes/write.service", names: ["prepareUpdateNote"], action: "notes/edit.action" },
  { module: "notes/write.service", names: ["prepareDeleteNote"], action: "notes/delete.action" },
  { module: "replies/replies.service", names: ["prepareReply"], action: "replies/reply.action" },
  { module: "replies/replies.service", names: ["prepareEditReply"], action: "notes/edit.action" },
  { module: "replies/replies.service", names: ["prepareDeleteReply"], action: "notes/delete.action" },
  { module: "notes/renotes.service", names: ["prepareRenote", "prepareUndoRenote"], action: "notes/renote.action" },
  { module: "reports/reports.service", names: ["report"], action: "reports/report.action" },
  { module: "safety/safety.service", names: ["block", "mute"], action: "safety/block.action" },
  { module: "safety/domain-blocks.service", names: ["blockServer"], action: "safety/domain-block.action" },
  { module: "safety/moderation.service", names: ["act"], action: "safety/moderate.action" },
  { module: "users/verify-links", names: ["verifyLinks"], action: "users/profile.action" },
];

const baseOf = (module: string) => module.split("/").at(-1) as string;
const importsFrom = (text: string, name: string, module: string) =>
  new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*"[^"]*\\b${baseOf(module).replace(".", "\\.")}"`).test(
    text,
  );

const cases = ACTIONS.flatMap((a) =>
  Object.entries(a.doors).map(([door, spec]) => {
    const where = typeof spec === "string" ? { file: spec } : spec;
    const fn = where.fn ?? a.fn;
    return { ...a, door, fn, where: { file: where.file, calls: where.calls } };
  }),
);

describe("each action and its doors", () => {
  it.each(cases)("$action, through $door: $where.file", ({ module, fn, door, where }) => {
    const text = sourceOf(where.file);
    if (where.calls) expect(text.includes(where.calls), `calls ${where.calls}`).toBe(true);
    if (door === "page") return;
    expect(importsFrom(text, fn, module), `imports ${fn} from ${module}`).toBe(true);
    // Used past its import: called, or handed to the route that calls it.
    expect(text.match(new RegExp(`\\b${fn}\\b`, "g"))?.length ?? 0, `uses ${fn}`).toBeGreaterThan(1);
  });

  it("every action function exists in its module", () => {
    const missing = ACTIONS.filter(
      (a) => !new RegExp(`export (async function|function|const) ${a.fn}\\b`).test(sourceOf(`${F}/${a.module}.ts`)),
    );
    expect(missing.map((a) => a.fn)).toEqual([]);
  });

  it("no door imports an action's function without being listed here", () => {
    const listed = new Set(cases.map((c) => `${c.fn} ${c.where.file}`));
    const unlisted: string[] = [];
    for (const a of ACTIONS)
      for (const [file, text] of SOURCES)
        if (file !== `${F}/${a.module}.ts` && importsFrom(text, a.fn, a.module) && !listed.has(`${a.fn} ${file}`))
          unlisted.push(`${a.fn} ${file}`);
    // An action calling another is not a door (a report that blocks the author calls the block).
    expect(unlisted).toEqual([`blockAction ${F}/reports/report.action.ts`]);
  });

  it("the write an action wraps is imported by that action alone", () => {
    const strays: string[] = [];
    for (const { module, names, action } of WRAPPED)
      for (const [file, text] of SOURCES)
        for (const name of names)
          if (file !== `${F}/${action}.ts` && importsFrom(text, name, module)) strays.push(`${name} in ${file}`);
    expect(strays).toEqual([]);
  });
});
