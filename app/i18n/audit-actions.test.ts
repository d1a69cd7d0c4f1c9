/**
 * Every action the code records in the audit log has its words in both catalogues, so the audit
 * page and the evidence pack never show a raw code (issue 40: `sso.domain_claimed` and the SCIM,
 * saved-search and feed actions were shown as code). The recorded actions are read from the
 * sources: a `noun.verb` literal given as `action:` or to one of the audit helpers.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { auditActions as en, auditObjects as enObjects } from "./en/audit";
import { auditActions as es, auditObjects as esObjects } from "./es/audit";

const root = path.resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

/** `action: "x.y"`, `action: cond ? "x.y" : "x.z"`, and the helpers' action arguments. */
const helpers = /\b(?:recordAudit|auditByMember|auditSso|auditObligation|auditForUser|audit|auditEvent)\(([^;]*?)\)/gs;
const code = /"([a-z][a-z_]*\.[a-z][a-z_]*)"/g;

const files = () => [...sources(path.join(root, ".server")), ...sources(path.join(root, "routes"))];

/** The kinds of object the events are about: `{ type: "document", id… }`. */
function recordedObjects(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files()) {
    for (const [, type] of readFileSync(file, "utf8").matchAll(/\{ type: "([a-z_]+)", id\b/g)) {
      if (type && !found.has(type)) found.set(type, path.relative(root, file));
    }
  }
  return found;
}

function recordedActions(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files()) {
    const text = readFileSync(file, "utf8");
    const spans = [
      ...[...text.matchAll(/\baction: ([^,\n]+)/g)].map((m) => m[1] ?? ""),
      ...[...text.matchAll(helpers)].map((m) => m[1] ?? ""),
    ];
    for (const span of spans) {
      for (const [, action] of span.matchAll(code)) {
        if (action && !found.has(action)) found.set(action, path.relative(root, file));
      }
    }
  }
  return found;
}

describe("audit actions in words", () => {
  const recorded = recordedActions();

  test("the sources record the actions this test knows to look for", () => {
    // A canary per way of recording: if the patterns stop matching, the test says so.
    for (const known of [
      "document.read",
      "sso.domain_claimed",
      "scim.user_created",
      "obligation.reviewed",
      "saved_search.created",
    ]) {
      expect(recorded.has(known), known).toBe(true);
    }
  });

  test("every recorded action has a Spanish and an English label", () => {
    const missing = [...recorded]
      .filter(([action]) => !(action in es) || !(action in en))
      .map(([action, file]) => `${action} (${file})`);
    expect(missing).toEqual([]);
  });

  test("every kind of object an event is about has a Spanish and an English label", () => {
    const objects = recordedObjects();
    expect(objects.has("sso_domain")).toBe(true);
    const missing = [...objects]
      .filter(([type]) => !(type in esObjects) || !(type in enObjects))
      .map(([type, file]) => `${type} (${file})`);
    expect(missing).toEqual([]);
  });

  test("the two catalogues name the same actions, none left empty or untranslated", () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(es).sort());
    for (const [action, label] of Object.entries(es)) {
      expect(label.trim(), action).not.toBe("");
      expect((en as Record<string, string>)[action]?.trim(), action).not.toBe("");
    }
  });
});
