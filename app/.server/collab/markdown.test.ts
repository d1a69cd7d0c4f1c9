import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.ts";

describe("renderMarkdown", () => {
  it("renders the subset", () => {
    expect(renderMarkdown("Hola **mundo** y *tú* y _vos_, `a<b`\nsegunda")).toBe(
      "<p>Hola <strong>mundo</strong> y <em>tú</em> y <em>vos</em>, <code>a&#60;b</code><br>segunda</p>",
    );
    expect(renderMarkdown("- uno\n- [dos](https://example.com/a?b=1&c=2)\n\n1. x\n2. y")).toBe(
      '<ul><li>uno</li><li><a href="https://example.com/a?b=1&#38;c=2" rel="noopener noreferrer nofollow">dos</a></li></ul>\n<ol><li>x</li><li>y</li></ol>',
    );
    expect(renderMarkdown("[mail](mailto:a@example.com)")).toContain('href="mailto:a@example.com"');
    expect(renderMarkdown("snake_case_name stays")).toBe("<p>snake_case_name stays</p>");
  });

  it("escapes every XSS attempt", () => {
    const attempts = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(1)">',
      "[x](javascript:alert(1))",
      "[x](JaVaScRiPt:alert(1))",
      "[x](data:text/html;base64,PHNjcmlwdD4=)",
      '[x](https://a.example/"onmouseover="alert(1))',
      "**<svg onload=alert(1)>**",
      "`</code><script>alert(1)</script>`",
      "[<b>x</b>](https://example.com)",
      "<a href='javascript:alert(1)'>x</a>",
    ];
    for (const attempt of attempts) {
      const html = renderMarkdown(attempt);
      expect(html).not.toMatch(/<(script|img|svg|b)\b/i);
      expect(html).not.toMatch(/href="(javascript|data):/i);
      expect(html).not.toMatch(/<a [^>]*"[^>]*on\w+=/i);
      // Only the subset's tags are present.
      for (const tag of html.match(/<\/?([a-z]+)/g) ?? [])
        expect(["<p", "</p", "<a", "</a", "<strong", "</strong", "<em", "</em", "<code", "</code", "<br"]).toContain(
          tag,
        );
    }
    expect(renderMarkdown("[x](javascript:alert(1))")).toBe("<p>[x](javascript:alert(1))</p>");
  });
});
