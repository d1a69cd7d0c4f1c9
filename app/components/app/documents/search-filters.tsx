import { Fragment, type JSX } from "react";
import type { Locale } from "../../../i18n/locales";
import { plural } from "../../../lib/plural";
import { relevanceIds } from "../../../lib/taxonomy";
import { appMessages } from "../messages";
import { taxonomyOptions } from "./labels";

export type FilterValues = Partial<
  Record<"q" | "source" | "area" | "jurisdiction" | "kind" | "relevance" | "from" | "to" | "sort", string>
>;
export type FacetCounts = Record<"source" | "jurisdiction" | "kind" | "relevance" | "area", Record<string, number>>;

interface SelectProps {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  options: { id: string; label: string }[];
  counts?: Record<string, number> | undefined;
  anyLabel: string;
  errors?: string[] | undefined;
}

/** A labelled select; with counts, each option shows how many documents it would leave. */
function FilterSelect({ id, name, label, value, options, counts, anyLabel, errors }: SelectProps) {
  const invalid = errors !== undefined && errors.length > 0;
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className={`form-select form-select-sm${invalid ? " is-invalid" : ""}`}
        defaultValue={value ?? ""}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
      >
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {counts ? `${option.label} (${counts[option.id] ?? 0})` : option.label}
          </option>
        ))}
      </select>
      {invalid ? (
        <div id={`${id}-error`} className="invalid-feedback">
          {errors.join(" ")}
        </div>
      ) : null}
    </div>
  );
}

/** The filters of a GET form: source, area, jurisdiction, kind, relevance, dates (and sort). */
export function SearchFilters({
  locale,
  values,
  facets,
  errors = {},
  idPrefix,
  withSort = false,
  fields = ["source", "area", "jurisdiction", "kind", "relevance", "from", "to"],
  wrap,
  sources,
}: {
  locale: Locale;
  values: FilterValues;
  facets?: FacetCounts | null | undefined;
  errors?: Record<string, string[]>;
  idPrefix: string;
  withSort?: boolean;
  /** Which filters to show, in this order. */
  fields?: readonly ("source" | "area" | "jurisdiction" | "kind" | "relevance" | "from" | "to")[];
  /** "col": each field in a grid column (the caller's .row). */
  wrap?: "col" | undefined;
  /** The registered sources with their names (the loader's sourceChoices(locale)). */
  sources: readonly { id: string; label: string }[];
}) {
  const t = appMessages(locale).docs;
  const s = t.search;
  const taxonomy = taxonomyOptions(locale);
  const counts = facets ?? undefined;
  const date = (name: "from" | "to", label: string) => {
    const invalid = (errors[name]?.length ?? 0) > 0;
    return (
      <div className="mb-3">
        <label htmlFor={`${idPrefix}-${name}`} className="form-label">
          {label}
        </label>
        <input
          type="date"
          id={`${idPrefix}-${name}`}
          name={name}
          defaultValue={values[name] ?? ""}
          className={`form-control form-control-sm${invalid ? " is-invalid" : ""}`}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${idPrefix}-${name}-error` : undefined}
        />
        {invalid ? (
          <div id={`${idPrefix}-${name}-error`} className="invalid-feedback">
            {errors[name]?.join(" ")}
          </div>
        ) : null}
      </div>
    );
  };
  const elements: Record<(typeof fields)[number], JSX.Element> = {
    source: (
      <FilterSelect
        id={`${idPrefix}-source`}
        name="source"
        label={s.source}
        value={values.source}
        anyLabel={s.any}
        options={[...sources]}
        counts={counts?.source}
        errors={errors.source}
      />
    ),
    area: (
      <FilterSelect
        id={`${idPrefix}-area`}
        name="area"
        label={s.area}
        value={values.area}
        anyLabel={s.any}
        options={taxonomy.areas}
        counts={counts?.area}
        errors={errors.area}
      />
    ),
    jurisdiction: (
      <FilterSelect
        id={`${idPrefix}-jurisdiction`}
        name="jurisdiction"
        label={s.jurisdiction}
        value={values.jurisdiction}
        anyLabel={s.any}
        options={taxonomy.jurisdictions}
        counts={counts?.jurisdiction}
        errors={errors.jurisdiction}
      />
    ),
    kind: (
      <FilterSelect
        id={`${idPrefix}-kind`}
        name="kind"
        label={s.kind}
        value={values.kind}
        anyLabel={s.any}
        options={taxonomy.kinds}
        counts={counts?.kind}
        errors={errors.kind}
      />
    ),
    relevance: (
      <FilterSelect
        id={`${idPrefix}-relevance`}
        name="relevance"
        label={s.relevance}
        value={values.relevance}
        anyLabel={s.any}
        options={relevanceIds.map((id) => ({ id, label: t.relevance[id] }))}
        counts={counts?.relevance}
        errors={errors.relevance}
      />
    ),
    from: date("from", s.from),
    to: date("to", s.to),
  };
  return (
    <>
      {fields.map((name) =>
        wrap === "col" ? (
          <div className="col" key={name}>
            {elements[name]}
          </div>
        ) : (
          <Fragment key={name}>{elements[name]}</Fragment>
        ),
      )}
      {withSort ? (
        <div className="mb-3">
          <label htmlFor={`${idPrefix}-sort`} className="form-label">
            {s.sort}
          </label>
          <select
            id={`${idPrefix}-sort`}
            name="sort"
            className="form-select form-select-sm"
            defaultValue={
              values.sort === "date" || values.sort === "relevance" ? values.sort : values.q ? "relevance" : "date"
            }
          >
            <option value="relevance">{s.sortRelevance}</option>
            <option value="date">{s.sortDate}</option>
          </select>
        </div>
      ) : null}
    </>
  );
}

/** "1 result", "{n} results", or "more than {n}" when only a lower bound is known. */
export function resultCount(locale: Locale, total: number): string {
  const s = appMessages(locale).docs.search;
  return plural(locale, s.count, total);
}
