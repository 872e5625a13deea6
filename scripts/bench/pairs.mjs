// Popular against fresh: the same write on a target with a crowd behind it (100k likes, 100k
// followers, 10,000 followers on 500 servers) and on one without. The request must cost the same
// (budget 1.2×, the same rows read and written): what a crowd costs belongs to the queue, never to
// the person's request. measure.mjs times each pair after its rounds, run.mjs judges it.
import { load, median, percentile } from "./timing.mjs";

export const PAIR_BUDGET = 1.2;

export const PAIRS = [
  ["like/unlike, popular note (likes = notes)", "like/unlike, fresh note"],
  ["follow/unfollow, popular user (followers = notes)", "follow/unfollow, fresh user"],
  // The fan-out to 10,000 followers on 500 servers is the queue consumer's (one message per post).
  ["post a note, author with 10k followers on 500 servers", "post a note, author with none elsewhere"],
];

/**
 * Both sides of a pair under the same load, their samples interleaved A B B A `blocks` times, so
 * whatever the machine does meanwhile weighs on both alike (a single sample's p50 of a write moved
 * by more than the budget's margin between two samples of the same row). Each side's answer times
 * are pooled: its median and middle half, and the ratio of the medians.
 */
export async function timePair(base, popular, fresh, { blocks, seconds, connections }) {
  const times = { popular: [], fresh: [] };
  let errors = 0;
  const sample = async (side, next) => {
    const r = await load(base, next, { seconds, connections });
    times[side].push(...r.times);
    errors += r.errors;
  };
  for (let b = 0; b < blocks; b++) {
    await sample("popular", popular);
    await sample("fresh", fresh);
    await sample("fresh", fresh);
    await sample("popular", popular);
  }
  const side = (xs) => ({ p50: median(xs), middleHalf: [percentile(xs, 0.25), percentile(xs, 0.75)], n: xs.length });
  const p = side(times.popular);
  const f = side(times.fresh);
  return { popular: p, fresh: f, ratio: p.p50 / f.p50, errors };
}
