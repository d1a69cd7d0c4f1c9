import { scaleBand, scaleLinear } from "d3-scale";
import { stack } from "d3-shape";
import type { OverviewData, TriageStatus } from "../../../.server/evidence/overview";
import type { Locale } from "../../../i18n/locales";
import { plural } from "../../../lib/plural";
import { areaLabel, formatDay } from "../documents/labels";
import { fill } from "../messages";
import { ChartFrame, StatusPatterns } from "./chart-frame";
import { evidenceMessages } from "./messages";

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const statuses: readonly TriageStatus[] = ["new", "under_review", "applies", "does_not_apply", "in_progress", "done"];
const shortDay = (day: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-ES", {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  }).format(new Date(`${day}T00:00:00Z`));

/** New relevant documents per area (rows) and week (columns): a grid whose every cell writes its number. */
export function AreaWeekChart({ locale, data }: { locale: Locale; data: OverviewData["perArea"] }) {
  const t = evidenceMessages(locale).overview;
  const areas = data.areas.slice(0, 10);
  const labelWidth = 230;
  const cell = 34;
  const width = labelWidth + Math.max(1, data.weeks.length) * cell + 60;
  const height = 40 + Math.max(1, areas.length) * 28 + 10;
  const x = scaleBand<string>()
    .domain(data.weeks)
    .range([labelWidth, labelWidth + data.weeks.length * cell])
    .padding(0.08);
  const y = scaleBand<string>()
    .domain(areas.map((a) => a.area))
    .range([40, 40 + areas.length * 28])
    .padding(0.1);
  const max = Math.max(1, ...areas.flatMap((a) => a.counts));
  const shade = scaleLinear().domain([0, max]).range([0.06, 0.55]);
  const total = data.areas.reduce((sum, a) => sum + a.total, 0);
  const top = data.areas[0];
  const summary =
    total === 0
      ? t.noData
      : fill(t.perArea.summary, {
          count: total,
          weeks: plural(locale, t.perArea.weeks, data.weeks.length),
          area: top ? areaLabel(top.area, locale) : "—",
          top: top?.total ?? 0,
        });
  return (
    <ChartFrame
      empty={total === 0}
      id="chart-areas"
      title={t.perArea.title}
      caption={t.perArea.caption}
      summary={summary}
      tableLabel={t.dataTable}
      width={width}
      height={height}
      svg={
        <>
          <g className="axis">
            {data.weeks.map((week, i) =>
              i % 2 === 0 || data.weeks.length <= 8 ? (
                <text key={week} x={(x(week) ?? 0) + x.bandwidth() / 2} y={30} textAnchor="middle">
                  {shortDay(week, locale)}
                </text>
              ) : null,
            )}
            <text x={labelWidth + data.weeks.length * cell + 8} y={30}>
              {t.perArea.total}
            </text>
          </g>
          {areas.map((row) => (
            <g key={row.area}>
              <text
                className="label"
                x={labelWidth - 8}
                y={(y(row.area) ?? 0) + y.bandwidth() / 2 + 4}
                textAnchor="end"
              >
                {clip(areaLabel(row.area, locale), 34)}
              </text>
              {row.counts.map((count, i) => {
                const week = data.weeks[i] ?? "";
                return (
                  <g key={week}>
                    <rect
                      x={x(week)}
                      y={y(row.area)}
                      width={x.bandwidth()}
                      height={y.bandwidth()}
                      className="heat-cell"
                      fillOpacity={count === 0 ? 0.03 : shade(count)}
                    />
                    {count > 0 ? (
                      <text
                        className="value-label"
                        x={(x(week) ?? 0) + x.bandwidth() / 2}
                        y={(y(row.area) ?? 0) + y.bandwidth() / 2 + 4}
                        textAnchor="middle"
                      >
                        {count}
                      </text>
                    ) : null}
                  </g>
                );
              })}
              <text
                className="value-label"
                x={labelWidth + data.weeks.length * cell + 8}
                y={(y(row.area) ?? 0) + y.bandwidth() / 2 + 4}
              >
                {row.total}
              </text>
            </g>
          ))}
        </>
      }
      table={
        <table className="table table-sm small">
          <caption className="visually-hidden">{t.perArea.title}</caption>
          <thead>
            <tr>
              <th scope="col">{t.area}</th>
              {data.weeks.map((week) => (
                <th scope="col" key={week}>
                  {`${t.perArea.week} ${formatDay(week, locale)}`}
                </th>
              ))}
              <th scope="col">{t.perArea.total}</th>
            </tr>
          </thead>
          <tbody>
            {data.areas.map((row) => (
              <tr key={row.area}>
                <th scope="row">{areaLabel(row.area, locale)}</th>
                {row.counts.map((count, i) => (
                  <td key={data.weeks[i]}>{count}</td>
                ))}
                <td>{row.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

/** Triage status per group: stacked bars (d3-shape's stack), each status a pattern and a number, overdue written at the end. */
export function TriageChart({
  locale,
  data,
  groupNames,
}: {
  locale: Locale;
  data: OverviewData["triage"];
  groupNames: Record<string, string>;
}) {
  const t = evidenceMessages(locale).overview;
  const name = (group: string | null) => (group ? (groupNames[group] ?? group) : t.triage.unassigned);
  const rows = data.groups.map((g) => ({ key: g.group ?? "", ...g.counts }));
  const series = stack<(typeof rows)[number], TriageStatus>().keys(statuses)(rows);
  const labelWidth = 150;
  const chartWidth = 460;
  const legendHeight = 56;
  const width = labelWidth + chartWidth + 120;
  const height = legendHeight + Math.max(1, rows.length) * 36 + 10;
  const max = Math.max(1, ...data.groups.map((g) => g.total));
  const x = scaleLinear()
    .domain([0, max])
    .range([labelWidth, labelWidth + chartWidth]);
  const y = scaleBand<string>()
    .domain(rows.map((r) => r.key))
    .range([legendHeight, legendHeight + rows.length * 36])
    .padding(0.2);
  const total = data.groups.reduce((s, g) => s + g.total, 0);
  const overdue = data.groups.reduce((s, g) => s + g.overdue, 0);
  return (
    <ChartFrame
      empty={total === 0}
      id="chart-triage"
      title={t.triage.title}
      caption={t.triage.caption}
      summary={total === 0 ? t.noData : fill(t.triage.summary, { count: total, overdue })}
      tableLabel={t.dataTable}
      width={width}
      height={height}
      svg={
        <>
          <StatusPatterns prefix="triage-pattern" />
          <g className="legend">
            {statuses.map((status, i) => {
              const lx = 10 + (i % 3) * 200;
              const ly = 8 + Math.floor(i / 3) * 22;
              return (
                <g key={status}>
                  <rect
                    x={lx}
                    y={ly}
                    width={16}
                    height={14}
                    fill={`url(#triage-pattern-${status})`}
                    className="bar-outline"
                  />
                  <text x={lx + 22} y={ly + 12}>
                    {t.status[status]}
                  </text>
                </g>
              );
            })}
          </g>
          {series.map((layer) => (
            <g key={layer.key}>
              {layer.map((segment) => {
                const key = segment.data.key;
                const x0 = x(segment[0]);
                const w = x(segment[1]) - x0;
                if (w <= 0) return null;
                const count = segment[1] - segment[0];
                return (
                  <g key={key}>
                    <rect
                      x={x0}
                      y={y(key)}
                      width={w}
                      height={y.bandwidth()}
                      fill={`url(#triage-pattern-${layer.key})`}
                      className="bar-outline"
                    />
                    {w >= 22 ? (
                      <>
                        <rect
                          x={x0 + w / 2 - 10}
                          y={(y(key) ?? 0) + y.bandwidth() / 2 - 8}
                          width={20}
                          height={16}
                          rx={3}
                          className="label-chip"
                        />
                        <text
                          className="value-label"
                          x={x0 + w / 2}
                          y={(y(key) ?? 0) + y.bandwidth() / 2 + 4}
                          textAnchor="middle"
                        >
                          {count}
                        </text>
                      </>
                    ) : null}
                  </g>
                );
              })}
            </g>
          ))}
          {data.groups.map((g) => (
            <g key={g.group ?? ""}>
              <text
                className="label"
                x={labelWidth - 8}
                y={(y(g.group ?? "") ?? 0) + y.bandwidth() / 2 + 4}
                textAnchor="end"
              >
                {clip(name(g.group), 22)}
              </text>
              <text className="value-label" x={x(g.total) + 8} y={(y(g.group ?? "") ?? 0) + y.bandwidth() / 2 + 4}>
                {g.overdue > 0 ? `${g.total} · ⚠ ${g.overdue} ${t.triage.overdue.toLowerCase()}` : String(g.total)}
              </text>
            </g>
          ))}
        </>
      }
      table={
        <table className="table table-sm small">
          <caption className="visually-hidden">{t.triage.title}</caption>
          <thead>
            <tr>
              <th scope="col">{t.triage.group}</th>
              {statuses.map((status) => (
                <th scope="col" key={status}>
                  {t.status[status]}
                </th>
              ))}
              <th scope="col">{t.triage.overdue}</th>
            </tr>
          </thead>
          <tbody>
            {data.groups.map((g) => (
              <tr key={g.group ?? ""}>
                <th scope="row">{name(g.group)}</th>
                {statuses.map((status) => (
                  <td key={status}>{g.counts[status]}</td>
                ))}
                <td>{g.overdue}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

/** Days from publication to the first decision, in bands: labelled columns and the median written out. */
export function DecisionChart({ locale, data }: { locale: Locale; data: OverviewData["decision"] }) {
  const t = evidenceMessages(locale).overview;
  const labels = t.decision.buckets;
  const width = 560;
  const height = 250;
  const x = scaleBand<string>()
    .domain(labels)
    .range([50, width - 20])
    .padding(0.2);
  const max = Math.max(1, ...data.bands);
  const y = scaleLinear()
    .domain([0, max])
    .nice()
    .range([height - 40, 20]);
  const ticks = y.ticks(Math.min(5, max));
  const summary =
    data.count === 0
      ? t.noData
      : fill(t.decision.summary, { count: data.count, median: plural(locale, t.decision.days, data.medianDays ?? 0) });
  return (
    <ChartFrame
      empty={data.count === 0}
      id="chart-decision"
      title={t.decision.title}
      caption={t.decision.caption}
      summary={summary}
      tableLabel={t.dataTable}
      width={width}
      height={height}
      svg={
        <>
          <g className="grid">
            {ticks.map((tick) => (
              <line key={tick} x1={50} x2={width - 20} y1={y(tick)} y2={y(tick)} />
            ))}
          </g>
          <g className="axis">
            {ticks.map((tick) => (
              <text key={tick} x={42} y={y(tick) + 4} textAnchor="end">
                {tick}
              </text>
            ))}
            {labels.map((label) => (
              <text key={label} x={(x(label) ?? 0) + x.bandwidth() / 2} y={height - 22} textAnchor="middle">
                {label}
              </text>
            ))}
            <text x={(width + 30) / 2} y={height - 4} textAnchor="middle">
              {t.decision.bucket}
            </text>
          </g>
          {labels.map((label, i) => {
            const value = data.bands[i] ?? 0;
            return (
              <g key={label}>
                <rect
                  x={x(label)}
                  y={y(value)}
                  width={x.bandwidth()}
                  height={height - 40 - y(value)}
                  className="decision-bar bar-outline"
                />
                <text
                  className="value-label"
                  x={(x(label) ?? 0) + x.bandwidth() / 2}
                  y={y(value) - 5}
                  textAnchor="middle"
                >
                  {value}
                </text>
              </g>
            );
          })}
        </>
      }
      table={
        <table className="table table-sm small">
          <caption className="visually-hidden">{t.decision.title}</caption>
          <thead>
            <tr>
              <th scope="col">{t.decision.bucket}</th>
              <th scope="col">{t.decision.documents}</th>
            </tr>
          </thead>
          <tbody>
            {labels.map((label, i) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{data.bands[i] ?? 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
