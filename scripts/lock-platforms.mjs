// The registry mirror this project installs from lacks some platform builds (e.g. rollup and
// biome for darwin/win32/musl), so `npm install` silently leaves them out of package-lock.json and
// `npm ci` then refuses the lock as "out of sync". This records each missing optional platform
// package with the os/cpu/libc its name states; `npm ci` skips them on other platforms without
// fetching anything. Run after `npm install` changes the lock: `node scripts/lock-platforms.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const OS = ["android", "darwin", "freebsd", "linux", "openbsd", "netbsd", "sunos", "win32", "aix", "openharmony"];
const CPU = ["arm64", "x64", "ia32", "arm", "loong64", "ppc64", "riscv64", "s390x", "mips64el"];

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!os || !cpu) return null;
  const entry = { os: [os], cpu: [cpu] };
  if (os === "linux") entry.libc = [parts.some((p) => p.startsWith("musl")) ? "musl" : "glibc"];
  return entry;
}

// Where npm would place a dependency of the package at `at`: the nearest node_modules up the tree.
function placeFor(at, name) {
  const nested = `${at}/node_modules/${name}`;
  return lock.packages[nested] ? nested : `node_modules/${name}`;
}

let added = 0;
for (const [at, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const where = placeFor(at, name);
    if (lock.packages[where]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
    lock.packages[where] = { version, ...platform, dev: pkg.dev, optional: true };
    if (!pkg.dev) delete lock.packages[where].dev;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => a.localeCompare(b, "en")));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: recorded ${added} platform package(s)`);
