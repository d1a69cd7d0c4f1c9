/** axe-core in a page: the violations of WCAG 2.2 AA (and axe's best practices unless told not to). */
import axe from "axe-core";
import type { Page } from "playwright-core";

export interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

export async function axeViolations(page: Page, options: { bestPractice?: boolean } = {}): Promise<AxeViolation[]> {
  const tags = options.bestPractice === false ? wcagTags : [...wcagTags, "best-practice"];
  await page.evaluate(axe.source);
  return (await page.evaluate(async (values) => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values },
    });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.map(String) })),
    }));
  }, tags)) as AxeViolation[];
}
