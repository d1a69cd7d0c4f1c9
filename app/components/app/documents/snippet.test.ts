import { describe, expect, it } from "vitest";
import { snippetParts } from "./snippet";

describe("snippetParts", () => {
  it("splits a safe snippet on its marks and unescapes the text", () => {
    expect(snippetParts("a &lt;b&gt; <mark>datos</mark> &amp; &#39;c&#39; <mark>ley</mark>")).toEqual([
      { text: "a <b> ", marked: false },
      { text: "datos", marked: true },
      { text: " & 'c' ", marked: false },
      { text: "ley", marked: true },
    ]);
  });

  it("keeps escaped markup as text, never as a mark", () => {
    expect(snippetParts("&lt;mark&gt;x&lt;/mark&gt;")).toEqual([{ text: "<mark>x</mark>", marked: false }]);
  });
});
