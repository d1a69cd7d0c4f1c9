/** The document page's triage: the decision form and its history, and the obligations recorded from the text. */
import { Form } from "react-router";
import type { Locale } from "../../../i18n/locales";
import { FormAlert } from "../form-field";
import { fill, formatDateTime } from "../messages";
import {
  AssigneeOptions,
  formatDueDay,
  InputField,
  ObligationFields,
  OverdueBadge,
  type People,
  SelectField,
  triageMessages,
} from "./fields";

const statuses = ["new", "under_review", "applies", "does_not_apply", "in_progress", "done"] as const;
const impacts = ["high", "medium", "low"] as const;
const obligationStatuses = ["open", "in_progress", "done", "not_applicable"] as const;

type Status = (typeof statuses)[number];
type ObligationStatus = (typeof obligationStatuses)[number];

export interface TriagePanelData {
  item: {
    status: Status;
    assignee: { type: "user" | "group"; id: string; name: string } | null;
    dueOn: string | null;
    dueSource: "entry_into_force" | "application" | "manual" | null;
    impact: (typeof impacts)[number] | null;
    rationale: string;
    overdue: boolean;
  } | null;
  proposal: { dueOn: string; dueSource: "entry_into_force" | "application" } | null;
  history: {
    id: number;
    at: string;
    actor: { id: string; name: string };
    changes: Record<string, { from: unknown; to: unknown }>;
    note: string | null;
  }[];
  obligations: {
    id: string;
    anchor: string;
    excerpt: string;
    title: string;
    description: string;
    owner: { type: "user" | "group"; id: string; name: string } | null;
    dueOn: string | null;
    status: ObligationStatus;
    reference: string;
    overdue: boolean;
  }[];
  applies: boolean;
  people: People;
}

export type TriageResult =
  | { ok: string; count?: number }
  | { form: string; errors: Record<string, string[]>; values: Record<string, string> };

function failedFor(result: TriageResult | undefined, form: string) {
  return result && "form" in result && result.form === form ? result : undefined;
}

function assigneeValue(assignee: { type: string; id: string } | null | undefined) {
  return assignee ? `${assignee.type}:${assignee.id}` : "";
}

/** One history entry's changes, in words. */
function describeChange(field: string, change: { from: unknown; to: unknown }, locale: Locale, people: People): string {
  const t = triageMessages(locale);
  const show = (value: unknown): string => {
    if (value === null || value === undefined || value === "") return t.panel.empty;
    const text = String(value);
    if (field === "status") return t.statuses[text as Status] ?? text;
    if (field === "impact") return t.impacts[text as keyof typeof t.impacts] ?? text;
    if (field === "dueOn") return formatDueDay(text, locale);
    if (field === "assigneeUserId") return people.members.find((m) => m.id === text)?.name ?? text;
    if (field === "assigneeTeamId") return people.groups.find((g) => g.id === text)?.name ?? text;
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  };
  const labels: Record<string, string> = {
    status: t.fields.status,
    assigneeUserId: t.fields.assignee,
    assigneeTeamId: `${t.fields.assignee} (${t.fields.group})`,
    dueOn: t.fields.dueOn,
    impact: t.fields.impact,
    rationale: t.fields.rationale,
  };
  return fill(t.panel.changed, { field: labels[field] ?? field, from: show(change.from), to: show(change.to) });
}

export function TriagePanel({
  locale,
  data,
  result,
}: {
  locale: Locale;
  data: TriagePanelData;
  result: TriageResult | undefined;
}) {
  const t = triageMessages(locale);
  const failed = failedFor(result, "triage");
  const errors = failed?.errors ?? {};
  const values = failed?.values;
  const item = data.item;
  const saved =
    result && "ok" in result
      ? result.ok === "triage"
        ? t.panel.saved
        : result.ok === "unchanged"
          ? t.panel.unchanged
          : undefined
      : undefined;
  const dueValue = values?.dueOn ?? item?.dueOn ?? data.proposal?.dueOn ?? "";
  return (
    <section id="triage" aria-labelledby="doc-triage" className="card mb-3" data-testid="triage-panel">
      <div className="card-body">
        <h2 id="doc-triage" className="h5">
          {t.panel.heading}
          {item?.overdue ? <OverdueBadge locale={locale} /> : null}
        </h2>
        <p className="small text-body-secondary">{t.panel.lead}</p>
        {!item ? <p className="small">{t.panel.notYet}</p> : null}
        {item?.dueSource || data.proposal ? (
          <p className="small text-body-secondary" data-testid="due-source">
            {fill(t.panel.proposed, {
              date: formatDueDay(item?.dueOn ?? data.proposal?.dueOn ?? null, locale),
              source: t.dueSources[item?.dueSource ?? data.proposal?.dueSource ?? "manual"],
            })}
          </p>
        ) : null}
        <FormAlert kind="success">{saved}</FormAlert>
        <FormAlert kind="danger">{failed ? t.panel.formError : undefined}</FormAlert>
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="triage.update" />
          <SelectField
            id="triage-status"
            name="status"
            label={t.fields.status}
            value={values?.status ?? item?.status ?? "new"}
            errors={errors.status}
          >
            {statuses.map((s) => (
              <option key={s} value={s}>
                {t.statuses[s]}
              </option>
            ))}
          </SelectField>
          <SelectField
            id="triage-assignee"
            name="assignee"
            label={t.fields.assignee}
            value={values?.assignee ?? assigneeValue(item?.assignee)}
            errors={errors.assignee}
          >
            <AssigneeOptions people={data.people} locale={locale} />
          </SelectField>
          <InputField
            id="triage-due"
            name="dueOn"
            type="date"
            label={t.fields.dueOn}
            value={dueValue}
            errors={errors.dueOn}
          />
          <SelectField
            id="triage-impact"
            name="impact"
            label={t.fields.impact}
            value={values?.impact ?? item?.impact ?? ""}
            errors={errors.impact}
          >
            <option value="">{t.fields.noImpact}</option>
            {impacts.map((i) => (
              <option key={i} value={i}>
                {t.impacts[i]}
              </option>
            ))}
          </SelectField>
          <div className="mb-2">
            <label htmlFor="triage-rationale" className="form-label small mb-1">
              {t.fields.rationale}
            </label>
            <textarea
              id="triage-rationale"
              name="rationale"
              rows={3}
              className={`form-control form-control-sm${errors.rationale ? " is-invalid" : ""}`}
              defaultValue={values?.rationale ?? item?.rationale ?? ""}
              aria-invalid={errors.rationale ? true : undefined}
              aria-describedby={errors.rationale ? "triage-rationale-error" : undefined}
            />
            {errors.rationale ? (
              <div id="triage-rationale-error" className="invalid-feedback d-block">
                {errors.rationale.join(" ")}
              </div>
            ) : null}
          </div>
          <InputField
            id="triage-note"
            name="note"
            label={t.fields.note}
            value={values?.note ?? ""}
            errors={errors.note}
          />
          <button type="submit" className="btn btn-primary btn-sm">
            {t.panel.save}
          </button>
        </Form>
        <h3 className="h6 mt-3">{t.panel.history}</h3>
        {data.history.length === 0 ? <p className="small mb-0">{t.panel.noHistory}</p> : null}
        <ol className="small mb-0 ps-3" data-testid="triage-history">
          {data.history.map((entry) => (
            <li key={entry.id} className="mb-1">
              <span className="fw-semibold">{entry.actor.id === "system" ? t.panel.system : entry.actor.name}</span>
              <span className="text-body-secondary"> · {formatDateTime(entry.at, locale)}</span>
              <ul className="mb-0 ps-3">
                {Object.entries(entry.changes).map(([field, change]) => (
                  <li key={field}>{describeChange(field, change, locale, data.people)}</li>
                ))}
                {entry.note && entry.note !== "alert" ? <li className="fst-italic">{entry.note}</li> : null}
              </ul>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

export function ObligationsPanel({
  locale,
  data,
  paragraphs,
  result,
}: {
  locale: Locale;
  data: TriagePanelData;
  paragraphs: readonly { kind: string; text: string }[];
  result: TriageResult | undefined;
}) {
  const t = triageMessages(locale);
  const o = t.obligations;
  const failed = failedFor(result, "obligation");
  const errors = failed?.errors ?? {};
  const values = failed?.values;
  const saved =
    result && "ok" in result
      ? result.ok === "obligation"
        ? o.saved
        : result.ok === "obligationUpdated"
          ? o.updated
          : undefined
      : undefined;
  return (
    <section id="obligations" aria-labelledby="doc-obligations" className="mb-4" data-testid="obligations-panel">
      <h2 id="doc-obligations" className="h5">
        {o.heading}
      </h2>
      <p className="small text-body-secondary">{o.lead}</p>
      <FormAlert kind="success">{saved}</FormAlert>
      {data.obligations.length === 0 ? <p className="small">{o.none}</p> : null}
      <ul className="list-unstyled" data-testid="obligations">
        {data.obligations.map((ob) => {
          const rowFailed = failedFor(result, `obligation-${ob.id}`);
          const n = Number(ob.anchor.slice(2)) + 1;
          return (
            <li key={ob.id} className="border rounded p-2 mb-2" data-testid="obligation">
              <p className="fw-semibold mb-1">
                {ob.title}
                {ob.overdue ? <OverdueBadge locale={locale} /> : null}
              </p>
              <blockquote className="small border-start ps-2 mb-1 text-body-secondary">
                <a href={`#${ob.anchor}`}>{fill(o.goToParagraph, { n })}</a>: {ob.excerpt}
              </blockquote>
              {ob.description ? <p className="small mb-1">{ob.description}</p> : null}
              <p className="small mb-2">
                {t.obligationStatuses[ob.status]} · {ob.owner ? ob.owner.name : t.fields.noAssignee} ·{" "}
                {formatDueDay(ob.dueOn, locale)}
                {ob.reference ? ` · ${ob.reference}` : ""}
              </p>
              <Form method="post" noValidate className="row g-2 align-items-end">
                <input type="hidden" name="intent" value="obligation.update" />
                <input type="hidden" name="obligationId" value={ob.id} />
                <SelectField
                  id={`ob-${ob.id}-status`}
                  name="status"
                  label={o.status}
                  value={rowFailed?.values.status ?? ob.status}
                  errors={rowFailed?.errors.status}
                  className="col-sm-4"
                >
                  {obligationStatuses.map((s) => (
                    <option key={s} value={s}>
                      {t.obligationStatuses[s]}
                    </option>
                  ))}
                </SelectField>
                <SelectField
                  id={`ob-${ob.id}-owner`}
                  name="owner"
                  label={o.owner}
                  value={rowFailed?.values.owner ?? assigneeValue(ob.owner)}
                  errors={rowFailed?.errors.owner}
                  className="col-sm-4"
                >
                  <AssigneeOptions people={data.people} locale={locale} />
                </SelectField>
                <InputField
                  id={`ob-${ob.id}-due`}
                  name="dueOn"
                  type="date"
                  label={o.dueOn}
                  value={rowFailed?.values.dueOn ?? ob.dueOn ?? ""}
                  errors={rowFailed?.errors.dueOn}
                  className="col-sm-4"
                />
                <div className="col-12">
                  <button type="submit" className="btn btn-outline-primary btn-sm">
                    {o.update}
                    <span className="visually-hidden">: {ob.title}</span>
                  </button>
                </div>
              </Form>
            </li>
          );
        })}
      </ul>
      {data.applies ? (
        <details className="border rounded p-2" open={Boolean(failed)} data-testid="obligation-form">
          <summary className="fw-semibold">{o.add}</summary>
          <FormAlert kind="danger">{failed ? t.panel.formError : undefined}</FormAlert>
          {errors.status ? <p className="text-danger small">{errors.status.join(" ")}</p> : null}
          <Form method="post" noValidate className="mt-2">
            <input type="hidden" name="intent" value="obligation.create" />
            <SelectField
              id="ob-anchor"
              name="anchor"
              label={o.anchor}
              value={values?.anchor ?? ""}
              errors={errors.anchor}
            >
              <option value="">{o.chooseParagraph}</option>
              {paragraphs
                .map((p, index) => ({ ...p, anchor: `p-${index}`, index }))
                .map((p) => (
                  <option key={p.anchor} value={p.anchor}>
                    {fill(o.paragraphOption, {
                      n: p.index + 1,
                      text: p.text.length > 90 ? `${p.text.slice(0, 89)}…` : p.text,
                    })}
                  </option>
                ))}
            </SelectField>
            <ObligationFields
              idPrefix="ob"
              people={data.people}
              locale={locale}
              values={values}
              errors={errors}
              buttonClassName="btn btn-primary btn-sm"
            />
          </Form>
        </details>
      ) : (
        <p className="small text-body-secondary">{o.onlyApplies}</p>
      )}
    </section>
  );
}
