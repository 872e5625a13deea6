// Spec 9: relative times in s, m, h, d, mo, y.
export function relativeTime(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.floor((now - ms) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 30) return `${d}d`;
  const y = Math.floor(d / 365);
  // 360–364 days are still months: cap at 11 so the unit never reads "12mo" or "0y".
  return y >= 1 ? `${y}y` : `${Math.min(11, Math.floor(d / 30))}mo`;
}
