import { describe, expect, it } from "vitest";
import { users, visitor } from "../factories";
import { PAGE_SIZE } from "../../worker/lib/paging";
import { THREAD_CHILDREN } from "../../worker/features/replies/thread.service";

// The note page's conversation as a tree: direct replies paged oldest first, two levels under each
// (the first few per reply), and a reply just written shown under its parent wherever it falls.

interface R {
  id: number;
  parent: number;
  txt: string;
}

describe("replies: a conversation as a tree (GET /v1/replies/thread)", () => {
  it("answers the page's direct replies, then up to three levels under them, each naming its parent", async () => {
    const [a, b] = await users(2);
    const note = (await a.post("/v1/notes", { label: "idea", content: "<p>Tree</p>" })).body.note.id;
    const say = async (who: typeof a, parent: number, text: string) =>
      (await who.post("/v1/replies", { parent, content: `<p>${text}</p>` })).body.id as number;
    const r1 = await say(b, -note, "r1");
    const r2 = await say(a, -note, "r2");
    const r11 = await say(a, r1, "r1.1");
    const r111 = await say(b, r11, "r1.1.1");
    const r1111 = await say(a, r111, "r1.1.1.1");
    const kids = [];
    for (let i = 0; i < THREAD_CHILDREN + 1; i++) kids.push(await say(b, r2, `r2.${i}`));
    const res = await visitor().get(`/v1/replies/thread?pid=${-note}&page=1`);
    expect(res.status).toBe(200);
    const got = res.body.replies as R[];
    expect(got.slice(0, 2).map((r) => r.id)).toEqual([r1, r2]);
    const ids = new Set(got.map((r) => r.id));
    expect(ids.has(r11) && ids.has(r111)).toBe(true);
    // Four levels down and the fourth reply to r2 are behind "show more".
    expect(ids.has(r1111)).toBe(false);
    expect(kids.map((k) => ids.has(k))).toEqual([true, true, true, false]);
    expect(got.find((r) => r.id === r111)?.parent).toBe(r11);
    expect(res.body.paginator).toEqual({ page: 1, is_end: true });

    // A reply just written shows under its parent even past the first few (focus).
    const late = await say(a, r2, "late one");
    const focused = (await a.get(`/v1/replies/thread?pid=${-note}&page=1&focus=${late}`)).body.replies as R[];
    expect(focused.map((r) => r.id)).toContain(late);
    expect(focused.map((r) => r.id)).not.toContain(kids[3]);
    // A bad focus is no focus.
    expect((await a.get(`/v1/replies/thread?pid=${-note}&page=1&focus=x`)).status).toBe(200);
  });

  it("pages by the direct replies with the keyset cursor, each page with its own branches", async () => {
    const [a] = await users(1);
    const note = (await a.post("/v1/notes", { label: "idea", content: "<p>Many</p>" })).body.note.id;
    const top: number[] = [];
    for (let i = 0; i < PAGE_SIZE + 2; i++)
      top.push((await a.post("/v1/replies", { parent: -note, content: `<p>t${i}</p>` })).body.id);
    const under21 = (await a.post("/v1/replies", { parent: top[PAGE_SIZE], content: "<p>under</p>" })).body.id;
    const first = await a.get(`/v1/replies/thread?pid=${-note}&page=1`);
    expect(first.body.replies.map((r: R) => r.id)).toEqual(top.slice(0, PAGE_SIZE));
    expect(first.body.paginator.is_end).toBe(false);
    const second = await a.get(`/v1/replies/thread?pid=${-note}&page=2&cursor=${first.body.cursor}`);
    expect(second.body.replies.map((r: R) => r.id)).toEqual([...top.slice(PAGE_SIZE), under21]);
    expect(second.body.paginator.is_end).toBe(true);
  });
});
