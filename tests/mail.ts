// Reading the local outbox (GET /v1/dev/outbox) the way a person reads their inbox. Some mail is
// sent after the response (waitUntil), so reading waits a little for it to arrive.
import { expect } from "vitest";
import { Client } from "./http";

export interface Message {
  to: string;
  subject: string;
  text: string;
  html: string;
  sent_at: number;
}

export async function inbox(to: string): Promise<Message[]> {
  const res = await new Client().get(`/v1/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return res.body.messages;
}

/** The newest message to `to` whose subject matches, waiting up to ~2 s for it; `after` skips older ones. */
export async function mailTo(to: string, subject: RegExp, after = 0): Promise<Message> {
  for (let i = 0; i < 40; i++) {
    const m = (await inbox(to)).find((x) => subject.test(x.subject) && x.sent_at >= after);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

/** The token of the link to `path` (/confirm or /reset) in a message's text. */
export function tokenIn(m: Message, path: "/confirm" | "/reset"): string {
  const match = m.text.match(new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`));
  if (!match) throw new Error(`no ${path} link in: ${m.text}`);
  return match[1];
}

/** Opens the newest confirmation link sent to `to` (as the /confirm page does). */
export async function confirm(to: string) {
  const token = tokenIn(await mailTo(to, /Confirm your email/), "/confirm");
  return new Client().post("/v1/email/verify", { token });
}
