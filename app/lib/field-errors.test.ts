import { describe, expect, it } from "vitest";
import * as z from "zod";
import { fieldErrorsOf } from "./field-errors.ts";

const schema = z.object({
  name: z
    .string()
    .min(3, "too short")
    .max(5, "too long")
    .regex(/^[a-z]+$/, "letters only"),
  tags: z.array(z.string().min(1, "empty tag")),
});

describe("fieldErrorsOf", () => {
  it("groups messages by top-level field, in order, without repeats", () => {
    const result = schema.safeParse({ name: "A1", tags: ["", ""] });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!.issues, { fallback: "form" })).toEqual({
      name: ["too short", "letters only"],
      tags: ["empty tag"],
    });
  });

  it("joins the whole path for the API, and names whole-input issues by the fallback", () => {
    const issues = [
      { path: ["tags", 1], message: "empty tag" },
      { path: [], message: "bad body" },
    ];
    expect(fieldErrorsOf(issues, { fallback: "_", path: "joined" })).toEqual({
      "tags.1": ["empty tag"],
      _: ["bad body"],
    });
  });

  it("keeps only the listed fields and merges into errors found before", () => {
    const before = { owner: ["pick a group"] };
    const issues = [
      { path: ["name"], message: "required" },
      { path: ["honeypot"], message: "ignored" },
    ];
    expect(fieldErrorsOf(issues, { fallback: "form", only: ["name", "owner"], into: before })).toEqual({
      owner: ["pick a group"],
      name: ["required"],
    });
  });
});
