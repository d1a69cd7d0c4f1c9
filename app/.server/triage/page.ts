/**
 * The pages' side of triage (document page, /app/triage, /app/obligations, account): the no-JS
 * forms' fields turned into the services' inputs, validated in the reader's language, and what
 * the pages show. Form intents: triage.update, triage.bulk, obligation.create, obligation.update,
 * reminders.save.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Locale } from "../../i18n/locales.ts";
import { recordAudit } from "../audit/record.ts";
import type { MemberInfo } from "../auth/permissions.ts";
import type { Db } from "../db/client.ts";
import { reminderSettings } from "../db/schema/triage.ts";
import { fieldErrors, triageText } from "./messages.ts";
import {
  appliesStatuses,
  createObligation,
  listObligations,
  obligationCreateSchema,
  obligationPatchSchema,
  parseObligationFilters,
  updateObligation,
} from "./obligations.ts";
import { organisationGroups, organisationMembers } from "./people.ts";
import {
  getTriage,
  proposedTriage,
  type TriageActor,
  triageHistoryOf,
  triagePatchSchema,
  updateTriage,
} from "./store.ts";

export const triageIntents = [
  "triage.update",
  "triage.bulk",
  "obligation.create",
  "obligation.update",
  "reminders.save",
] as const;

export type TriageFormResult =
  | { ok: "triage" | "unchanged" | "obligation" | "obligationUpdated" | "bulk" | "reminders"; count?: number }
  | { form: string; errors: Record<string, string[]>; values: Record<string, string>; status: 422 };

export function actorOf(
  member: MemberInfo,
  origin: { ip?: string | undefined; userAgent?: string | undefined },
): TriageActor {
  return {
    organizationId: member.organizationId,
    userId: member.userId,
    name: member.name || member.email,
    email: member.email,
    ip: origin.ip,
    userAgent: origin.userAgent,
  };
}

export function values(form: FormData, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = form.get(key);
    if (typeof value === "string") out[key] = value.slice(0, 4000);
  }
  return out;
}

/** "user:ana" / "group:x" / "" → the services' assignee (undefined when the field is absent). */
export function assigneeOf(
  value: string | undefined,
): { type: "user" | "group"; id: string } | null | undefined | false {
  if (value === undefined) return undefined;
  if (value === "") return null;
  const at = value.indexOf(":");
  const type = value.slice(0, at);
  const id = value.slice(at + 1);
  return (type === "user" || type === "group") && id ? { type, id } : false;
}

export const blankToNull = (value: string | undefined) =>
  value === undefined ? undefined : value === "" ? null : value;

export async function triageFormAction(
  deps: {
    db: Db;
    member: MemberInfo;
    locale: Locale;
    documentId: string;
    origin: { ip?: string | undefined; userAgent?: string | undefined };
  },
  form: FormData,
): Promise<TriageFormResult | null> {
  const intent = form.get("intent");
  const t = triageText[deps.locale];
  const actor = actorOf(deps.member, deps.origin);
  if (intent === "triage.update") {
    const raw = values(form, ["status", "assignee", "dueOn", "impact", "rationale", "note"]);
    const assignee = assigneeOf(raw.assignee);
    if (assignee === false) return { form: "triage", errors: { assignee: [t.assignee] }, values: raw, status: 422 };
    const parsed = triagePatchSchema(deps.locale).safeParse({
      status: raw.status,
      assignee,
      dueOn: blankToNull(raw.dueOn),
      impact: blankToNull(raw.impact),
      rationale: raw.rationale,
      note: raw.note,
    });
    if (!parsed.success) return { form: "triage", errors: fieldErrors(parsed.error.issues), values: raw, status: 422 };
    const outcome = await updateTriage(deps.db, actor, deps.documentId, parsed.data, deps.locale);
    if (!outcome.ok) {
      if (outcome.error === "not_found") return null;
      return { form: "triage", errors: outcome.errors, values: raw, status: 422 };
    }
    return { ok: Object.keys(outcome.changes).length > 0 || raw.note?.trim() ? "triage" : "unchanged" };
  }
  if (intent === "obligation.create") {
    const raw = values(form, ["anchor", "title", "description", "owner", "dueOn", "status", "reference"]);
    const owner = assigneeOf(raw.owner ?? "");
    if (owner === false) return { form: "obligation", errors: { owner: [t.assignee] }, values: raw, status: 422 };
    const parsed = obligationCreateSchema(deps.locale).safeParse({
      anchor: raw.anchor ?? "",
      title: raw.title ?? "",
      description: raw.description ?? "",
      owner,
      dueOn: blankToNull(raw.dueOn) ?? null,
      status: raw.status || "open",
      reference: raw.reference ?? "",
    });
    if (!parsed.success)
      return { form: "obligation", errors: fieldErrors(parsed.error.issues), values: raw, status: 422 };
    const outcome = await createObligation(deps.db, actor, deps.documentId, parsed.data, deps.locale);
    if (!outcome.ok) {
      if (outcome.error === "not_found") return null;
      return { form: "obligation", errors: outcome.errors, values: raw, status: 422 };
    }
    return { ok: "obligation" };
  }
  if (intent === "obligation.update") {
    const raw = values(form, ["obligationId", "status", "owner", "dueOn", "reference"]);
    const owner = assigneeOf(raw.owner);
    const formId = `obligation-${raw.obligationId ?? ""}`;
    if (owner === false) return { form: formId, errors: { owner: [t.assignee] }, values: raw, status: 422 };
    const parsed = obligationPatchSchema(deps.locale).safeParse({
      status: raw.status,
      owner,
      dueOn: blankToNull(raw.dueOn),
      reference: raw.reference,
    });
    if (!parsed.success) return { form: formId, errors: fieldErrors(parsed.error.issues), values: raw, status: 422 };
    const outcome = await updateObligation(deps.db, actor, raw.obligationId ?? "", parsed.data, deps.locale);
    if (!outcome.ok) {
      if (outcome.error === "not_found") return null;
      return { form: formId, errors: outcome.errors, values: raw, status: 422 };
    }
    return { ok: "obligationUpdated" };
  }
  return null;
}

/** Bulk actions of /app/triage: one field for every ticked row, each change audited on its own. */
export async function bulkTriageAction(
  deps: {
    db: Db;
    member: MemberInfo;
    locale: Locale;
    origin: { ip?: string | undefined; userAgent?: string | undefined };
  },
  form: FormData,
): Promise<TriageFormResult> {
  const t = triageText[deps.locale];
  const raw = values(form, ["field", "status", "assignee", "dueOn"]);
  const rows = form
    .getAll("documentId")
    .filter((v): v is string => typeof v === "string" && z.uuid().safeParse(v).success)
    .slice(0, 100);
  if (rows.length === 0) return { form: "bulk", errors: { documentId: [t.rows] }, values: raw, status: 422 };
  let patch: Record<string, unknown>;
  if (raw.field === "status") patch = { status: raw.status };
  else if (raw.field === "assignee") {
    const assignee = assigneeOf(raw.assignee ?? "");
    if (assignee === false) return { form: "bulk", errors: { assignee: [t.assignee] }, values: raw, status: 422 };
    patch = { assignee };
  } else if (raw.field === "dueOn") patch = { dueOn: blankToNull(raw.dueOn ?? "") };
  else return { form: "bulk", errors: { field: [t.bulkField] }, values: raw, status: 422 };
  const parsed = triagePatchSchema(deps.locale).safeParse(patch);
  if (!parsed.success) return { form: "bulk", errors: fieldErrors(parsed.error.issues), values: raw, status: 422 };
  const actor = actorOf(deps.member, deps.origin);
  let count = 0;
  for (const documentId of rows) {
    const outcome = await updateTriage(deps.db, actor, documentId, parsed.data, deps.locale);
    if (!outcome.ok && outcome.error === "field") {
      return { form: "bulk", errors: outcome.errors, values: raw, status: 422 };
    }
    if (outcome.ok) count += 1;
  }
  return { ok: "bulk", count };
}

/** What the document page shows of triage: the item (or its proposal), history, obligations, who can be assigned. */
export async function triagePanelView(db: Db, organizationId: string, documentId: string) {
  const [item, proposal, history, obligations, members, groups] = await Promise.all([
    getTriage(db, organizationId, documentId),
    proposedTriage(db, organizationId, documentId),
    triageHistoryOf(db, organizationId, documentId),
    listObligations(db, organizationId, { ...parseObligationFilters(new URLSearchParams()), documentId }),
    organisationMembers(db, organizationId),
    organisationGroups(db, organizationId),
  ]);
  return {
    item: item ?? null,
    proposal,
    history,
    obligations,
    applies: Boolean(item && (appliesStatuses as readonly string[]).includes(item.status)),
    people: { members: members.map((m) => ({ id: m.id, name: m.name })), groups },
  };
}

export async function reminderSettingsOf(db: Db, userId: string) {
  const [row] = await db.select().from(reminderSettings).where(eq(reminderSettings.userId, userId));
  return { hour: row?.hour ?? 9, daysBefore: row?.daysBefore ?? 3, mail: row?.mail ?? true };
}

export async function saveReminderSettings(
  db: Db,
  member: MemberInfo,
  locale: Locale,
  form: FormData,
  origin: { ip?: string | undefined; userAgent?: string | undefined } = {},
): Promise<TriageFormResult> {
  const t = triageText[locale];
  const raw = values(form, ["hour", "daysBefore", "mail"]);
  const parsed = z
    .object({
      hour: z.coerce.number({ error: t.hour }).int(t.hour).min(0, t.hour).max(23, t.hour),
      daysBefore: z.coerce.number({ error: t.daysBefore }).int(t.daysBefore).min(0, t.daysBefore).max(60, t.daysBefore),
    })
    .safeParse(raw);
  if (!parsed.success) return { form: "reminders", errors: fieldErrors(parsed.error.issues), values: raw, status: 422 };
  const settings = { hour: parsed.data.hour, daysBefore: parsed.data.daysBefore, mail: raw.mail === "on" };
  await db.transaction(async (tx) => {
    await tx
      .insert(reminderSettings)
      .values({ userId: member.userId, ...settings })
      .onConflictDoUpdate({ target: reminderSettings.userId, set: settings });
    await recordAudit(tx, {
      organizationId: member.organizationId,
      actor: { id: member.userId, email: member.email },
      action: "reminder_settings.updated",
      object: { type: "user", id: member.userId },
      ip: origin.ip,
      userAgent: origin.userAgent,
      detail: settings,
    });
  });
  return { ok: "reminders" };
}
