import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, eventHash, genesisHash, type HashedContent } from "./chain.ts";

/** The same object with its keys in another order at every depth, as jsonb may return it. */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, item]) => [key, reorder(item)]),
    );
  }
  return value;
}

const detail = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });

const content = fc.record({
  id: fc.uuid(),
  organizationId: fc.string({ minLength: 1, maxLength: 20 }),
  at: fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
  actor: fc.option(fc.record({ id: fc.string({ maxLength: 10 }), email: fc.string({ maxLength: 20 }) })),
  action: fc.constantFrom("auth.sign_in", "member.invited", "audit.exported"),
  object: fc.option(fc.record({ type: fc.string({ maxLength: 10 }), id: fc.string({ maxLength: 10 }) })),
  ipHash: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/)),
  userAgent: fc.option(fc.string({ maxLength: 30 })),
  detail: fc.option(detail),
}) as fc.Arbitrary<HashedContent>;

describe("the chain's hash", () => {
  it("does not depend on key order (jsonb reorders keys)", () => {
    fc.assert(
      fc.property(content, (event) => {
        const stored = JSON.parse(JSON.stringify(reorder(event.detail))) as Record<string, unknown> | null;
        expect(eventHash(genesisHash, { ...event, detail: stored })).toBe(eventHash(genesisHash, event));
      }),
    );
  });

  it("changes with any field and with the previous hash", () => {
    fc.assert(
      fc.property(content, fc.string({ minLength: 1, maxLength: 5 }), (event, extra) => {
        const hash = eventHash(genesisHash, event);
        expect(eventHash("f".repeat(64), event)).not.toBe(hash);
        expect(eventHash(genesisHash, { ...event, action: `${event.action}${extra}` })).not.toBe(hash);
        expect(eventHash(genesisHash, { ...event, at: new Date(event.at.getTime() + 1) })).not.toBe(hash);
        expect(eventHash(genesisHash, { ...event, organizationId: `${event.organizationId}${extra}` })).not.toBe(hash);
        expect(eventHash(genesisHash, { ...event, detail: { ...event.detail, [`k${extra}`]: 1 } })).not.toBe(hash);
      }),
    );
  });

  it("serialises canonically", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"x":0,"y":1}]},"b":1}',
    );
  });
});
