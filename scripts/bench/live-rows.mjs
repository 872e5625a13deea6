// The live streams' bench rows (npm run bench runs them after the sizes): tests/bench/live.test.ts
// in the workers runtime on loopback (vitest.live-bench.config.ts), its one `live-bench {…}` line
// read back. Budget: the posting request of an author with 10,000 connected followers costs at most
// 1.2× the same request of an author with 10,000 followers none of whom is connected, with the same
// D1 trips (the fan-out is the publisher's, after the answer). Timed settled (each post once the
// last one's deliveries arrived, the two authors' posts alternating A B B A, 1.5 × `posts` a side),
// the median of each side with its middle half; the back-to-back figure (each post meeting the last
// one's fan-out, which here shares the runtime and D1) is shown beside it.
import { spawnSync } from "node:child_process";

export const LIVE_BUDGET = 1.2;

/** Runs the rows at `scale` ("sockets,online,posts"); answers them and what is over budget. */
export function liveRows(scale, env) {
  const run = spawnSync("npx", ["vitest", "run", "-c", "vitest.live-bench.config.ts"], {
    env: { ...env, LIVE_BENCH: scale },
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = /live-bench (\{.*\})/.exec(run.stdout ?? "");
  if (run.status !== 0 || !line) return { rows: null, over: [`live rows: the run failed (exit ${run.status})`] };
  const rows = JSON.parse(line[1]);
  const { posting } = rows;
  posting.ratio = posting.manyMs / posting.zeroMs;
  posting.backRatio = posting.manyBackMs / posting.zeroBackMs;
  const over = [];
  if (posting.ratio > LIVE_BUDGET)
    over.push(
      `live: posting with ${posting.online} connected followers ×${posting.ratio.toFixed(2)} > ${LIVE_BUDGET}×`,
    );
  if (posting.manyTrips !== posting.zeroTrips)
    over.push(`live: posting makes ${posting.manyTrips} D1 trips connected vs ${posting.zeroTrips}`);
  return { rows, over };
}
