import { readPage } from "~/lib/page.server";
import { known } from "../../worker/db/reads";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { outboxRead } from "../../worker/lib/mail";

export const meta: MetaFunction = () => [{ title: "Outbox (local) · NoteX" }];

// Local development only: the mail NoteX would have delivered. Everywhere else this page is a 404.
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (context.cloudflare.env.APP_ENV !== "local") throw new Response("Not found", { status: 404 });
  const to = new URL(request.url).searchParams.get("to")?.trim() ?? "";
  const { viewer, reads } = await readPage(request, context, {
    messages: (db) => (to ? outboxRead(db, to) : known([])),
  });
  return { to, messages: reads.messages.ok ? reads.messages.data : [], viewer };
}

/** Message text with its links made clickable (text only: the HTML body is never rendered here). */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <p className="mail-text">
      {parts.map((p, i) =>
        /^https?:\/\//.test(p) ? (
          <a key={i} href={p}>
            {p}
          </a>
        ) : (
          p
        ),
      )}
    </p>
  );
}

export default function Outbox() {
  const { to, messages } = useLoaderData<typeof loader>();
  return (
    <section className="page narrow account-page">
      <h1>Outbox</h1>
      <p className="muted">Local development only: mail NoteX sent, newest first. Nothing here was delivered.</p>
      <Form method="get" className="outbox-search">
        <label htmlFor="outbox-to">Address</label>
        <input id="outbox-to" name="to" type="email" defaultValue={to} placeholder="someone@example.com" />
        <button className="btn primary" type="submit">
          Show
        </button>
      </Form>
      {to && !messages.length && <p className="empty">No messages to {to}.</p>}
      <ol className="outbox">
        {messages.map((m) => (
          <li key={`${m.sent_at}-${m.subject}`} className="mail">
            <div className="mail-head">
              <strong>{m.subject}</strong>
              <time dateTime={new Date(m.sent_at).toISOString()}>{new Date(m.sent_at).toLocaleString("en-GB")}</time>
            </div>
            <p className="muted">To: {m.to}</p>
            <Linked text={m.text} />
          </li>
        ))}
      </ol>
    </section>
  );
}
