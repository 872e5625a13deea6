// The one way NoteX sends email: Cloudflare's send_email binding (EMAIL) in its object form. Locally
// the binding delivers nothing (wrangler writes each message to a temporary folder), so with
// APP_ENV=local every message is also kept in the mail_outbox table, which /v1/dev/outbox and the
// /dev/outbox page read. Outside local nothing is stored: mail stays between us and the recipient.
import { desc, eq } from "drizzle-orm";
import { mailOutbox } from "../db/schema/users";
import type { DB, Env } from "../env";
import { bindPlan, namedObjects, planFrom } from "../db/plan";
import { type Read, readOne } from "../db/reads";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export const DEFAULT_FROM = "NoteX <no-reply@notex.example>";

/**
 * Sends one message. Never throws: a failed delivery is logged, so an answer that must not reveal
 * anything (forgot password) is the same whether or not sending worked.
 */
export async function sendMail(env: Env, db: DB, mail: Mail): Promise<void> {
  if (env.APP_ENV === "local") {
    await db.insert(mailOutbox).values(mail);
  }
  if (!env.EMAIL) return;
  try {
    await env.EMAIL.send({ from: env.MAIL_FROM || DEFAULT_FROM, ...mail });
  } catch (e) {
    // Locally the binding refuses addresses outside allowed_destination_addresses; the outbox has it.
    if (env.APP_ENV !== "local") console.error("mail not sent", (e as Error)?.message ?? e);
  }
}

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  sent_at: number;
}

/** The local outbox for one address, newest first, as a read (the /dev/outbox page sends it in its batch). */
export function outboxRead(db: DB, to: string, limit = 50): Read<OutboxMessage[]> {
  const plan = planFrom(
    db
      .select({
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        text: mailOutbox.text,
        html: mailOutbox.html,
        sent_at: mailOutbox.sentAt,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.to, to))
      .orderBy(desc(mailOutbox.id))
      .limit(limit),
  );
  return { statements: [bindPlan(db, plan, {})], value: ([r]) => namedObjects<OutboxMessage>(plan, r.results) };
}

export const outbox = (db: DB, to: string) => readOne(db, outboxRead(db, to));

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

/**
 * A message with a text body and the same words as simple HTML: paragraphs, and at most one button
 * link. Every value is escaped; the link is the only markup a caller adds.
 */
export function composeMail(
  to: string,
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): Mail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), "— NoteX"].join("\n\n");
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const button = action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;color:#555;font-size:13px">${escapeHtml(action.url)}</p>`
    : "";
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111;max-width:560px;margin:24px auto">${paragraphs.map(p).join("")}${button}<p style="color:#555">— NoteX</p></body></html>`;
  return { to, subject, text, html };
}
