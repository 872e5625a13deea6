// The moderation queue: open reports grouped by target, and the actions on a target (dismiss,
// hide, restore, suspend, unsuspend). An action is one db.batch: the change, the counters it moves
// (each by the one row it changed, guarded so a repeat moves nothing), the target's reports
// closed, the audit log row and the owner's notification with the reason.
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { moderationLog } from "../../db/schema/safety";
import { notifications, replies, reports } from "../../db/schema/social";
import { userLabels, users } from "../../db/schema/users";
import { endAllSessions, type SessionStore } from "../../lib/sessions";
import { runBatch } from "../../db/client";
import type { DB, Env } from "../../env";
import { composeMail, sendMail } from "../../lib/mail";
import { AppError, forbidden, notFound } from "../../lib/errors";
import { isLocal } from "../users/locality";
import { parentOf, type ReplyParent } from "../replies/parent";

export const ROLES = ["user", "moderator", "admin"] as const;
export type Role = (typeof ROLES)[number];
export const TARGET_KINDS = ["note", "reply", "company", "project", "skill", "user"] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];
export const ACTIONS = ["dismiss", "hide", "restore", "suspend", "unsuspend"] as const;
export type Action = (typeof ACTIONS)[number];

/** The role of a signed-in user; moderation routes answer 403 to anyone below moderator. */
export async function roleOf(db: DB, uid: number): Promise<Role> {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, uid)).limit(1);
  return (row?.role as Role) ?? "user";
}

export const isStaff = (role: string) => role === "moderator" || role === "admin";

export interface Target {
  ownerId: number;
  /** 1 when the owner is a person here (whose acts other servers hear of), 0 when elsewhere. */
  local: number;
  /** A note: its kind, label and original; a reply: its parent. */
  noteKind?: number;
  label?: string;
  renoteId?: number | null;
  parent?: ReplyParent;
  role?: string;
}

async function findTarget(db: DB, kind: TargetKind, id: number): Promise<Target | undefined> {
  let row: Target | undefined;
  if (kind === "note")
    [row] = await db
      .select({
        ownerId: notes.userId,
        local: isLocal(notes.userId),
        noteKind: notes.kind,
        label: notes.label,
        renoteId: notes.renoteId,
      })
      .from(notes)
      .where(eq(notes.id, id))
      .limit(1);
  else if (kind === "reply") {
    const [r] = await db
      .select({
        ownerId: replies.userId,
        local: isLocal(replies.userId),
        noteId: replies.noteId,
        parentReplyId: replies.parentReplyId,
      })
      .from(replies)
      .where(eq(replies.id, id))
      .limit(1);
    row = r && { ownerId: r.ownerId, local: r.local, parent: parentOf(r) };
  } else if (kind === "user")
    [row] = await db
      .select({ ownerId: users.id, local: isLocal(users.id), role: users.role })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
  else
    [row] = await db
      .select({ ownerId: folders.userId, local: isLocal(folders.userId) })
      .from(folders)
      .where(and(eq(folders.id, id), sql`lower(${folders.type}) = ${kind}`))
      .limit(1);
  return row;
}

/**
 * A note or reply leaving (or rejoining) the counts that lead to lists: its author's note and
 * x-label counts, its original's renote count, its parent's reply count. Each statement is
 * guarded by the row's current state and runs before the state flips, so it moves by exactly the
 * one row the action changes, and a repeated action moves nothing.
 */
function visibilityCounters(
  db: DB,
  kind: "note" | "reply",
  id: number,
  t: Target,
  hide: boolean,
): BatchItem<"sqlite">[] {
  const d = hide ? -1 : 1;
  const table = kind === "note" ? notes : replies;
  const state = hide ? sql`x.hidden_at is null` : sql`x.hidden_at is not null`;
  const flips = sql`exists(select 1 from ${table} x where x.id = ${id} and ${state})`;
  const out: BatchItem<"sqlite">[] = [];
  if (kind === "note") {
    if (t.noteKind !== 1) {
      out.push(
        db
          .update(users)
          .set({ noteNum: sql`${users.noteNum} + ${d}` })
          .where(and(eq(users.id, t.ownerId), flips)),
      );
      if (t.label) {
        const key = and(eq(userLabels.userId, t.ownerId), eq(userLabels.label, t.label));
        // A visible note's label always has its row, so this only adds one for a restore that needs it.
        if (!hide)
          out.push(db.insert(userLabels).values({ userId: t.ownerId, label: t.label, n: 0 }).onConflictDoNothing());
        out.push(
          db
            .update(userLabels)
            .set({ n: sql`${userLabels.n} + ${d}` })
            .where(and(key, flips)),
        );
        out.push(db.delete(userLabels).where(and(key, eq(userLabels.n, 0))));
      }
    }
    if (t.renoteId)
      out.push(
        db
          .update(notes)
          .set({ renum: sql`${notes.renum} + ${d}` })
          .where(and(eq(notes.id, t.renoteId), flips)),
      );
  } else if (t.parent !== undefined) {
    const p = t.parent;
    out.push(
      p.kind === "note"
        ? db
            .update(notes)
            .set({ repnum: sql`${notes.repnum} + ${d}` })
            .where(and(eq(notes.id, p.id), flips))
        : db
            .update(replies)
            .set({ repnum: sql`${replies.repnum} + ${d}` })
            .where(and(eq(replies.id, p.id), flips)),
    );
  }
  return out;
}

function flipHidden(db: DB, kind: "note" | "reply", id: number, hide: boolean, now: number) {
  const table = kind === "note" ? notes : replies;
  return db
    .update(table)
    .set({ hiddenAt: hide ? now : null })
    .where(and(eq(table.id, id), hide ? isNull(table.hiddenAt) : isNotNull(table.hiddenAt)));
}

export interface ActionInput {
  kind: TargetKind;
  id: number;
  action: Action;
  reason: string;
}

/** Any action on a target closes all of its open reports. */
const closeReports = (db: DB, kind: TargetKind, id: number, now: number) =>
  db
    .update(reports)
    .set({ closedAt: now })
    .where(and(eq(reports.kind, kind), eq(reports.targetId, id), isNull(reports.closedAt)));

/** The audit log's row for an action (owner 0: the target was gone, its owner unknown). */
const logged = (db: DB, moderatorId: number, a: ActionInput, ownerId: number, now: number) =>
  db.insert(moderationLog).values({
    moderatorId,
    kind: a.kind,
    targetId: a.id,
    ownerId,
    action: a.action,
    reason: a.reason,
    createdAt: now,
  });

/** The action's answer, and its target as it was found (the moderate action federates by it). */
export async function act(db: DB, sessions: SessionStore, moderator: { id: number; role: Role }, input: ActionInput) {
  const { kind, id, action, reason } = input;
  const t = await findTarget(db, kind, id);
  const now = Date.now();
  // Content deleted after it was reported: nothing to act on, but its reports can still be closed.
  if (!t) {
    if (action !== "dismiss") throw notFound("Not found");
    await runBatch(db, [closeReports(db, kind, id, now), logged(db, moderator.id, input, 0, now)]);
    return { done: { ok: true, kind, id, action }, target: t };
  }
  const changes: BatchItem<"sqlite">[] = [];
  if (action === "hide" || action === "restore") {
    if (kind !== "note" && kind !== "reply")
      throw new AppError(422, "invalid_input", "Only notes and replies can be hidden.", {
        action: "Only notes and replies can be hidden.",
      });
    // A plain renote has no content of its own (and undoing it must find it counted): act on its original.
    if (kind === "note" && t.noteKind === 1)
      throw new AppError(422, "invalid_input", "A renote has no content of its own: act on the original note.");
    const hide = action === "hide";
    changes.push(...visibilityCounters(db, kind, id, t, hide), flipHidden(db, kind, id, hide, now));
  } else if (action === "suspend" || action === "unsuspend") {
    // Suspending a note's or folder's author: the user behind the reported content.
    const uid = t.ownerId;
    if (uid === moderator.id) throw new AppError(422, "invalid_input", "You cannot suspend yourself.");
    const [u] = await db.select({ role: users.role }).from(users).where(eq(users.id, uid)).limit(1);
    if (isStaff(u?.role ?? "user") && moderator.role !== "admin") throw forbidden();
    if (action === "suspend")
      changes.push(
        db
          .update(users)
          .set({ suspendedAt: now })
          .where(and(eq(users.id, uid), isNull(users.suspendedAt))),
      );
    else changes.push(db.update(users).set({ suspendedAt: null }).where(eq(users.id, uid)));
  }
  const tblname = kind === "user" ? "user" : kind === "note" || kind === "reply" ? kind : "folder";
  // The notice comes from "NoteX moderation", never from a named moderator (they would become a
  // target), so the owner stands as its actor: it also outlives the moderator's account.
  const noti = and(
    eq(notifications.userId, t.ownerId),
    eq(notifications.actorId, t.ownerId),
    eq(notifications.action, `mod_${action}`),
    eq(notifications.tblname, tblname),
    eq(notifications.targetId, id),
  );
  await runBatch(db, [
    ...changes,
    closeReports(db, kind, id, now),
    logged(db, moderator.id, input, t.ownerId, now),
    // A statement of reasons to the owner; a repeated action replaces the earlier notice with a new,
    // unread one (the badge follows the rows: the notifications_unread_* triggers).
    db.delete(notifications).where(noti),
    db.insert(notifications).values({
      userId: t.ownerId,
      actorId: t.ownerId,
      action: `mod_${action}`,
      tblname,
      targetId: id,
      extra: reason.slice(0, 140),
      createdAt: now,
    }),
  ]);
  // Every session and token of theirs ends (after the batch: a failed batch suspends no one).
  if (action === "suspend") await endAllSessions(sessions, t.ownerId);
  return { done: { ok: true, kind, id, action }, target: t };
}

/**
 * The statement of reasons for a suspension or its end, by mail: a suspended person cannot sign in
 * to read the notification (Mastodon and Bluesky mail it too). Only after the action's batch ran.
 */
export async function mailAccountDecision(env: Env, db: DB, input: ActionInput, origin: string) {
  if (input.action !== "suspend" && input.action !== "unsuspend") return;
  const t = await findTarget(db, input.kind, input.id);
  if (!t) return;
  const [u] = await db.select({ email: users.email }).from(users).where(eq(users.id, t.ownerId)).limit(1);
  if (!u) return;
  const mail =
    input.action === "suspend"
      ? composeMail(u.email, "Your NoteX account has been suspended", [
          "The NoteX moderators have suspended your account. While it is suspended you cannot sign in, and your profile, notes and replies are not shown to anyone.",
          `Reason: ${input.reason}`,
          "If you think this is a mistake, reply to this message and tell us why.",
        ])
      : composeMail(
          u.email,
          "Your NoteX account is no longer suspended",
          [
            "The NoteX moderators have lifted the suspension of your account. You can sign in again, and your content is visible as before.",
            `Reason: ${input.reason}`,
          ],
          { label: "Sign in", url: `${origin}/login` },
        );
  await sendMail(env, db, mail);
}
