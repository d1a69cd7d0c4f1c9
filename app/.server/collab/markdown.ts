/**
 * The notes' Markdown subset, rendered to HTML: paragraphs (single line breaks kept), **strong**,
 * *emphasis* / _emphasis_, `inline code`, "- " / "* " and "1. " lists, and [links](url) to
 * http(s) and mailto only (rel="noopener noreferrer nofollow"). Everything else is text, escaped.
 */
import { escapeHtml } from "../../lib/escape-html.ts";

/** Emphasis over already-escaped text: the captured parts hold no markup of their own. */
function emphasis(escaped: string): string {
  return escaped
    .replace(/\*\*([^*\n]+?)\*\*/g, "<strong>$1</strong>")
    .replace(/\*([^*\n]+?)\*/g, "<em>$1</em>")
    .replace(/(^|[^\p{L}\p{N}_])_([^_\n]+?)_(?![\p{L}\p{N}_])/gu, "$1<em>$2</em>");
}

function safeUrl(raw: string): string | undefined {
  if (!/^(https?:\/\/|mailto:)/i.test(raw)) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "mailto:") return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}

function inline(raw: string): string {
  const token = /`([^`\n]+)`|\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)/g;
  let out = "";
  let last = 0;
  for (const match of raw.matchAll(token)) {
    out += emphasis(escapeHtml(raw.slice(last, match.index)));
    last = match.index + match[0].length;
    if (match[1] !== undefined) {
      out += `<code>${escapeHtml(match[1])}</code>`;
      continue;
    }
    const href = safeUrl(match[3] ?? "");
    out += href
      ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${emphasis(escapeHtml(match[2] ?? ""))}</a>`
      : emphasis(escapeHtml(match[0]));
  }
  return out + emphasis(escapeHtml(raw.slice(last)));
}

export function renderMarkdown(source: string): string {
  const blocks = source.replace(/\r\n?/g, "\n").split(/\n\s*\n/);
  const html: string[] = [];
  for (const block of blocks) {
    const lines = block.split("\n").filter((line) => line.trim() !== "");
    if (!lines.length) continue;
    if (lines.every((line) => /^\s*[-*]\s+/.test(line))) {
      html.push(`<ul>${lines.map((line) => `<li>${inline(line.replace(/^\s*[-*]\s+/, ""))}</li>`).join("")}</ul>`);
    } else if (lines.every((line) => /^\s*\d{1,9}[.)]\s+/.test(line))) {
      html.push(
        `<ol>${lines.map((line) => `<li>${inline(line.replace(/^\s*\d{1,9}[.)]\s+/, ""))}</li>`).join("")}</ol>`,
      );
    } else {
      html.push(`<p>${lines.map((line) => inline(line.trim())).join("<br>")}</p>`);
    }
  }
  return html.join("\n");
}
