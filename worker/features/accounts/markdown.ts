// Stored note HTML is already sanitised to a small allow-list (worker/lib/sanitize.ts), so a
// handful of rules turn it into Markdown for the export; anything unexpected falls back to text.
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };
const decode = (s: string) =>
  s
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) => ENTITIES[e])
    .replace(/&#(\d+);/g, (m, n: string) => {
      const code = Number(n);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    });

export function htmlToMarkdown(html: string): string {
  let md = html
    .replace(/\r?\n/g, " ")
    .replace(/<pre[^>]*>\s*(?:<code[^>]*>)?([\s\S]*?)(?:<\/code>)?\s*<\/pre>/gi, (_m, code: string) => {
      return `\n\n\`\`\`\n${code.replace(/<br\s*\/?>/gi, "\n")}\n\`\`\`\n\n`;
    })
    .replace(
      /<h([1-3])[^>]*>([\s\S]*?)<\/h\1>/gi,
      (_m, n: string, t: string) => `\n\n${"#".repeat(Number(n))} ${t}\n\n`,
    )
    .replace(/<blockquote[^>]*>([\s\S]*?)<\/blockquote>/gi, (_m, t: string) => `\n\n> ${t.trim()}\n\n`)
    .replace(/<li[^>]*>([\s\S]*?)<\/li>/gi, (_m, t: string) => `\n- ${t.trim()}`)
    .replace(/<\/?(ul|ol)[^>]*>/gi, "\n")
    .replace(/<(strong|b)>([\s\S]*?)<\/\1>/gi, "**$2**")
    .replace(/<(em|i)>([\s\S]*?)<\/\1>/gi, "*$2*")
    .replace(/<(s|strike)>([\s\S]*?)<\/\1>/gi, "~~$2~~")
    .replace(/<code>([\s\S]*?)<\/code>/gi, "`$1`")
    .replace(/<a [^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, "[$2]($1)")
    .replace(/<br\s*\/?>/gi, "  \n")
    .replace(/<\/p>\s*/gi, "\n\n")
    .replace(/<[^>]+>/g, "");
  md = decode(md)
    .replace(/[ \t]+\n/g, (m) => (m.startsWith("  ") ? "  \n" : "\n"))
    .replace(/\n{3,}/g, "\n\n");
  return md.trim();
}
