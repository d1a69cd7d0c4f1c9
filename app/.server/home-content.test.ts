import { describe, expect, it } from "vitest";
import { loadedGrammars, loadHomeContent } from "./home-content.ts";

describe("home content", () => {
  it("highlights the shell sample in both languages with only the shell grammar in memory", async () => {
    const [es, en] = await Promise.all([
      loadHomeContent("es", "https://vigia.example"),
      loadHomeContent("en", "https://vigia.example"),
    ]);
    for (const content of [es, en]) {
      expect(content.codeSampleHtml).toContain("https://vigia.example/api/v1/webhooks");
      expect(content.codeSampleHtml).toMatch(
        /<span style="color:#[0-9a-f]{6};--shiki-dark:#[0-9a-f]{6}">curl<\/span>/i,
      );
    }
    expect(es.codeSampleHtml).toContain("Suscribe tu sistema");
    expect(en.codeSampleHtml).toContain("Subscribe your system");
    // Vue (with the HTML, CSS and JavaScript it embeds) and SCSS were loaded once and never used.
    const grammars = await loadedGrammars();
    expect(grammars).toContain("shellscript");
    expect(grammars.filter((name) => /vue|scss|css|html|javascript|typescript/.test(name))).toEqual([]);
  });
});
