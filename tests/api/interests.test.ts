// Onboarding asks what a newcomer cares about and suggests people by it: the topics are kept on the
// account, and the people come grouped by topic, never oneself, people already followed, blocked
// either way, suspended, or who never posted.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type TestUser, users, visitor } from "../factories";

const put = (u: TestUser, body: unknown) => u.request("PUT", "/v1/interests", body);
const note = (u: TestUser, label: string) =>
  u.post("/v1/notes", { label, content: `<p>${label} from ${u.username}</p>` });
interface Group {
  topic: string;
  name: string;
  people: { id: number; username: string; fullname: string; descr: string; avatar: string }[];
}
const people = async (u: TestUser) => (await u.get<{ topics: string[]; groups: Group[] }>("/v1/interests/people")).body;
const inTopic = (groups: Group[], topic: string) =>
  groups.find((g) => g.topic === topic)?.people.map((p) => p.id) ?? [];

describe("interests and the people suggested from them", () => {
  it("keeps the chosen topics on the account, in the offered order, and refuses unknown ones without a change", async () => {
    const [a] = await users(1);
    expect((await people(a)).topics).toEqual([]);
    const saved = await put(a, { topics: ["research", "ai", "ai"] });
    expect(saved.status).toBe(200);
    expect(saved.body.topics).toEqual(["research", "ai"]);
    const refused = await put(a, { topics: ["ai", "cats"] });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("choose topics from the list");
    expect((await put(a, { topics: "ai" })).status).toBe(422);
    expect((await people(a)).topics).toEqual(["research", "ai"]);
    expect((await visitor().request("PUT", "/v1/interests", { topics: [] })).status).toBe(401);
    const offered = (await visitor().get("/v1/interests/topics")).body.topics;
    expect(offered.map((t: { key: string }) => t.key)).toContain("ai");
    expect(offered.find((t: { key: string }) => t.key === "ai").labels).toEqual(["a.i."]);
  });

  it("groups people by the topic they post under most, leaving out self, followed, blocked either way, suspended and silent people", async () => {
    const [me, ai, howto, followed, blockedByMe, blocksMe, suspended, silent, fan] = await users(9);
    await put(me, { topics: ["ai", "howto"] });
    await note(me, "a.i.");
    await note(ai, "a.i.");
    await note(ai, "a.i.");
    await note(ai, "tip");
    await note(howto, "how to");
    for (const u of [followed, blockedByMe, blocksMe, suspended]) await note(u, "a.i.");
    // Followed more than anyone new, so a cut at the top would still reach them.
    for (const u of [ai, howto, followed, blockedByMe, blocksMe, suspended]) await fan.post(`/v1/follows/${u.id}`);
    await me.post(`/v1/follows/${followed.id}`);
    await me.post(`/v1/blocks/${blockedByMe.id}`);
    await blocksMe.post(`/v1/blocks/${me.id}`);
    await env.DB.prepare("update users set suspended_at = ? where id = ?").bind(Date.now(), suspended.id).run();

    const { topics, groups } = await people(me);
    expect(topics).toEqual(["howto", "ai"]);
    expect(groups.map((g) => g.name).slice(0, 2)).toEqual(["How-tos and tips", "AI"]);
    expect(inTopic(groups, "ai")).toContain(ai.id);
    expect(inTopic(groups, "howto")).toContain(howto.id);
    expect(inTopic(groups, "howto")).not.toContain(ai.id);
    const everyone = groups.flatMap((g) => g.people.map((p) => p.id));
    for (const out of [me, followed, blockedByMe, blocksMe, suspended, silent]) expect(everyone).not.toContain(out.id);
    expect(new Set(everyone).size).toBe(everyone.length);
    const shown = groups.flatMap((g) => g.people).find((p) => p.id === ai.id);
    expect(shown).toMatchObject({ username: ai.username, fullname: "Test User", descr: "" });
  });

  it("without topics, suggests the most-followed active people as Popular on NoteX", async () => {
    const [me, active] = await users(2);
    await note(active, "idea");
    const { groups } = await people(me);
    expect(groups.map((g) => g.name)).toEqual(["Popular on NoteX"]);
    expect(inTopic(groups, "more")).toContain(active.id);
  });
});
