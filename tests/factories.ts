import { Client } from "./http";

let seq = 0;
const uniq = () =>
  `${Date.now().toString(36).slice(-4)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export interface TestUser extends Client {
  id: number;
  username: string;
  password: string;
  email: string;
}

/** Signs up a fresh user (its own client: cookie, token, address) and returns it ready to call the API. */
export async function user(
  overrides: Partial<{ username: string; password: string; name: string; email: string }> = {},
): Promise<TestUser> {
  const c = new Client() as TestUser;
  const username = overrides.username ?? `u${uniq()}`;
  const password = overrides.password ?? "secret123";
  const email = overrides.email ?? `${username}@example.com`;
  const res = await c.post("/v1/signup", { email, name: overrides.name ?? "Test User", username, password });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  c.token = res.body.token;
  c.id = res.body.user.id;
  c.username = res.body.user.username;
  c.password = password;
  c.email = email;
  return c;
}

export async function users(n: number): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < n; i++) out.push(await user());
  return out;
}

export const visitor = () => new Client();
