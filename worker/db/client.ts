import { drizzle } from "drizzle-orm/d1";
import type { DB } from "../env";
import * as schema from "./schema/all";

export function dbFor(d1: D1Database): DB {
  return drizzle(d1, { schema });
}
