import { describe, expect, it } from "vitest";
import { normaliseLink } from "../../worker/lib/links";
import { sanitizeHtml } from "../../worker/lib/sanitize";

// A scheme is judged as the browser will read the href: entities decoded, tabs and newlines gone.
describe("links in user HTML", () => {
  it("drops every spelling of a script scheme", () => {
    for (const href of [
      "javascript:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "&#106;avascript:alert(1)",
      "&#x6A;avascript&colon;alert(1)",
      "java&#9;script:alert(1)",
      "JaVaScRiPt:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
    ]) {
      const html = sanitizeHtml(`<p><a href="${href}">click</a></p>`);
      expect(html, href).not.toMatch(/href/);
      expect(html, href).toContain("click");
    }
  });

  it("keeps web and mail links, and gives a bare host http://", () => {
    expect(sanitizeHtml('<a href="https://example.com/a?b=1&amp;c=2">x</a>')).toContain(
      'href="https://example.com/a?b=1&amp;c=2"',
    );
    expect(sanitizeHtml('<a href="mailto:ada@example.com">x</a>')).toContain('href="mailto:ada@example.com"');
    expect(normaliseLink("example.com")).toBe("http://example.com");
    expect(normaliseLink("/tag/x")).toBe("/tag/x");
    expect(normaliseLink("\tjava script:x")).toBeNull();
  });

  it("drops a path the browser reads as another host: /\\host, and /<tab>/host", () => {
    for (const href of ["/\\evil.test/", "/\\\\evil.test", "/\t/evil.test/", "/\n\\evil.test"]) {
      expect(normaliseLink(href), JSON.stringify(href)).toBeNull();
      expect(sanitizeHtml(`<p><a href="${href}">x</a></p>`), JSON.stringify(href)).not.toMatch(/href/);
    }
    expect(normaliseLink("/ada/note/1")).toBe("/ada/note/1");
  });
});
