// The CV as one self-contained HTML file for the account's export: opens offline in any browser
// and prints as the CV page does.
import type { Cv, CvEntry } from "./cv.model";

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** Only web addresses become links (a stored link is normalised to one, but an export outlives rules). */
const href = (url: string) => (/^https?:\/\//i.test(url) ? esc(url) : "");

export const CV_PRINT_CSS = `body{font:15px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#111}
h1{margin:0;font-size:1.9rem}h2{font-size:1rem;text-transform:uppercase;letter-spacing:.06em;border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:1.6rem}
.entry{margin:.6rem 0;break-inside:avoid}.entry h3{margin:0;font-size:1rem}.sub,.dates{color:#444}.dates{float:right;font-size:.9rem}
p{margin:.2rem 0}a{color:inherit}
@media print{body{margin:0;max-width:none;font-size:11pt}a{text-decoration:none}@page{margin:16mm}}`;

function entryHtml(e: CvEntry): string {
  const link = href(e.url);
  const title = link ? `<a href="${link}">${esc(e.title)}</a>` : esc(e.title);
  return `<div class="entry">${e.dates ? `<span class="dates">${esc(e.dates)}</span>` : ""}<h3>${title}</h3>${
    e.subtitle ? `<p class="sub">${esc(e.subtitle)}</p>` : ""
  }${e.summary ? `<p>${esc(e.summary)}</p>` : ""}</div>`;
}

export function cvHtml(cv: Cv): string {
  const sections = cv.sections
    .map((s) => `<section><h2>${esc(s.title)}</h2>${s.entries.map(entryHtml).join("")}</section>`)
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(cv.name)} · CV</title><style>${CV_PRINT_CSS}</style></head>
<body><header><h1>${esc(cv.name)}</h1>${cv.label ? `<p class="sub">${esc(cv.label)}</p>` : ""}${
    cv.profile ? `<p><a href="${href(cv.profile)}">${esc(cv.profile)}</a></p>` : ""
  }${cv.summary ? `<p>${esc(cv.summary)}</p>` : ""}</header>
${sections}
</body></html>
`;
}
