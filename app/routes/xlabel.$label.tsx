import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { NoteList } from "~/components/notes/NoteList";
import { apiFor } from "~/lib/api.server";
import { loadList } from "~/lib/notes.server";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · NoteX` : "NoteX" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const param = (params.label ?? "").trim();
  if (!param || param.length > 100) throw new Response("Not found", { status: 404 });
  const list = await loadList(apiFor(request, context), `/labels/${encodeURIComponent(param)}`, new URL(request.url));
  return { title: param, list };
}

export default function Page() {
  const { title, list } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <section className="page">
      <h1>{title}</h1>
      <NoteList list={list} viewer={root?.user ?? null} />
    </section>
  );
}
