// What moderators read (the report queue, the audit log, the blocked servers), each as one read:
// whether the reader is a moderator is its first statement and a condition of its list, so the
// /moderation page sends it with the person's record in one batch and each /v1 route runs it alone,
// one D1 round trip either way, and anyone else gets 403 with nothing of the list read.
import { and, desc, sql } from "drizzle-orm";
import { bindingOf, bindPlan, namedObjects, planFrom } from "../../db/plan";
import type { Read } from "../../db/reads";
import { moderationLog } from "../../db/schema/safety";
import type { DB } from "../../env";
import { forbidden } from "../../lib/errors";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { REPORT_KINDS } from "../reports/reports.constants";
import { isModerator } from "./visibility";

type Rows = Record<string, unknown>[];

/** The reader's role and their list in one read: 403 unless they are a moderator or admin. */
function staffRead<T>(db: DB, viewer: number, list: D1PreparedStatement, value: (rows: Rows) => T): Read<T> {
  const staff = bindingOf(db)
    .prepare("select 1 as x_staff from users where id = ? and role in ('moderator', 'admin')")
    .bind(viewer);
  return {
    statements: [staff, list],
    value: ([role, found]) => {
      if (!role.results.length) throw forbidden();
      return value(found.results);
    },
  };
}

const CONTENT_OF = `(case r.kind
  when 'note' then (select json_object('id', n.id, 'uid', n.user_id, 'username', u.username, 'fullname', u.fullname,
    'label', n.label, 'content', n.content, 'txt', n.txt, 'hidden', n.hidden_at is not null, 'suspended', u.suspended_at is not null)
    from notes n join users u on u.id = n.user_id where n.id = r.target_id)
  when 'reply' then (select json_object('id', p.id, 'uid', p.user_id, 'username', u.username, 'fullname', u.fullname,
    'label', '', 'content', p.content, 'txt', p.txt, 'hidden', p.hidden_at is not null, 'suspended', u.suspended_at is not null)
    from replies p join users u on u.id = p.user_id where p.id = r.target_id)
  else (select json_object('id', f.id, 'uid', f.user_id, 'username', u.username, 'fullname', u.fullname,
    'label', f.type, 'content', '', 'txt', f.name, 'slug', f.slug, 'hidden', 0, 'suspended', u.suspended_at is not null)
    from folders f join users u on u.id = f.user_id where f.id = r.target_id) end)`;

const STAFF = "exists(select 1 from users mv where mv.id = ?1 and mv.role in ('moderator', 'admin'))";

const QUEUE = `select r.kind, r.target_id, count(*) as n,
    json_group_array(distinct r.reason) as reasons,
    json_group_array(json_object('id', ru.id, 'username', ru.username, 'fullname', ru.fullname, 'note', r.note)) as reporters,
    max(r.created_at) as last_at, ${CONTENT_OF} as content
  from reports r join users ru on ru.id = r.user_id
  where (r.closed_at is null) = ?2 and ${STAFF}
  group by r.kind, r.target_id
  order by last_at desc, r.kind, r.target_id
  limit ?3 offset ?4`;

interface QueueRow {
  kind: string;
  target_id: number;
  n: number;
  reasons: string;
  reporters: string;
  last_at: number;
  content: string | null;
}

/**
 * Reports grouped by target, latest report first: count, reasons, reporters (each with what they
 * wrote, if anything) and the content itself.
 */
export function reportQueueRead(db: DB, viewer: number, status: "open" | "closed", page: number) {
  const list = bindingOf(db)
    .prepare(QUEUE)
    .bind(viewer, status === "open" ? 1 : 0, PAGE_SIZE + 1, (page - 1) * PAGE_SIZE);
  return staffRead(db, viewer, list, (found) => {
    const rows = found as unknown as QueueRow[];
    return {
      reports: rows.slice(0, PAGE_SIZE).map((r) => {
        const reasons = (JSON.parse(r.reasons) as number[]).sort();
        return {
          kind: r.kind,
          id: r.target_id,
          count: r.n,
          kinds: reasons.map((k) => ({ id: k, name: REPORT_KINDS[k as keyof typeof REPORT_KINDS] ?? "Other" })),
          reporters: JSON.parse(r.reporters),
          last_at: r.last_at,
          content: r.content ? JSON.parse(r.content) : null,
        };
      }),
      paginator: { page, is_end: rows.length <= PAGE_SIZE },
    };
  });
}

interface LogRow {
  id: number;
  kind: string;
  targetId: number;
  action: string;
  reason: string;
  at: number;
  moderator: string;
  owner: string;
}

/** The audit log, newest first, keyset-paged. */
export function moderationLogRead(db: DB, viewer: number, q: { page: number; cursor?: string }) {
  const { after, offset } = startOf(q);
  const plan = planFrom(
    db
      .select({
        id: moderationLog.id,
        kind: moderationLog.kind,
        targetId: moderationLog.targetId,
        action: moderationLog.action,
        reason: moderationLog.reason,
        at: moderationLog.createdAt,
        moderator: sql<string>`(select username from users where id = ${moderationLog.moderatorId})`.as("x_moderator"),
        owner: sql<string>`(select username from users where id = ${moderationLog.ownerId})`.as("x_owner"),
      })
      .from(moderationLog)
      .where(
        and(
          isModerator(viewer),
          after ? sql`(${moderationLog.createdAt}, ${moderationLog.id}) < (${after.at}, ${after.id})` : undefined,
        ),
      )
      .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id))
      .limit(PAGE_SIZE + 1)
      .offset(offset),
  );
  return staffRead(db, viewer, bindPlan(db, plan, {}), (found) => {
    const page = pageOf(namedObjects<LogRow>(plan, found), q.page, (r) => ({ at: r.at, id: r.id }));
    return {
      entries: page.items.map((r) => ({
        id: r.id,
        kind: r.kind,
        target_id: r.targetId,
        action: r.action,
        reason: r.reason,
        moderator: r.moderator,
        owner: r.owner,
        created_at: r.at,
      })),
      paginator: page.paginator,
      cursor: page.cursor,
    };
  });
}

interface DomainRow {
  domain: string;
  reason: string;
  created_at: number;
  moderator: string | null;
}

/** Every blocked server, newest first (a short list: moderators read it whole). */
export function domainBlocksRead(db: DB, viewer: number) {
  const list = bindingOf(db)
    .prepare(
      `select host as domain, reason, created_at, (select username from users where id = created_by) as moderator
       from domain_blocks where ${STAFF} order by created_at desc`,
    )
    .bind(viewer);
  return staffRead(db, viewer, list, (found) => ({ domains: found as unknown as DomainRow[] }));
}
