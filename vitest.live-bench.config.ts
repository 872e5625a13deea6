// npm run bench:live (tests/bench/live.test.ts): the main config's runtime, this one file only (not
// the main config's projects, which would run the whole suite). Its scale is
// LIVE_BENCH="followers,online,posts" (default 1000 sockets, 10000 online followers, 20 posts).
import { mergeConfig } from "vitest/config";
import base from "./vitest.config";

const scale = (process.env.LIVE_BENCH ?? "1000,10000,20").split(",").map(Number);
const config = mergeConfig(base, { test: { maxWorkers: 1, testTimeout: 1_800_000, provide: { liveBench: scale } } });
const { projects: _, ...test } = config.test ?? {};
config.test = { ...test, include: ["tests/bench/live.test.ts"], setupFiles: ["./tests/setup.ts"] };
export default config;

declare module "vitest" {
  export interface ProvidedContext {
    liveBench: number[];
  }
}
