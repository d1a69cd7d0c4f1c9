/**
 * The HTML validator (html-validate) with its standard and document rules: what the HTML standard
 * requires of a served page, not React's serialisation style. SRI is not required: every
 * stylesheet and script is the server's own.
 */
import { HtmlValidate } from "html-validate";

const validator = new HtmlValidate({
  extends: ["html-validate:standard", "html-validate:document"],
  rules: { "require-sri": "off" },
});

/** Every problem in a page, as "rule: message (line:column)"; [] when the page is valid. */
export async function htmlProblems(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((result) =>
    result.messages.map((message) => `${message.ruleId}: ${message.message} (${message.line}:${message.column})`),
  );
}

/** A browser's request headers: the server answers crawlers' 404s in plain text. */
export const browserHeaders = {
  accept: "text/html,application/xhtml+xml",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36",
};
