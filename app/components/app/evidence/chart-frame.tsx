import type { ReactNode } from "react";

/**
 * A chart's frame: a figure with its title and caption, the SVG (an image with a text summary for
 * screen readers, scrollable sideways on a phone and reachable by keyboard), then its data as a
 * table in a <details> that anyone can open. An `empty` chart shows its summary ("no data") only:
 * axes and a table with nothing in them read as a broken chart.
 */
export function ChartFrame({
  id,
  title,
  caption,
  summary,
  tableLabel,
  width,
  height,
  svg,
  table,
  empty = false,
}: {
  id: string;
  title: string;
  caption: string;
  summary: string;
  tableLabel: string;
  width: number;
  height: number;
  svg: ReactNode;
  table: ReactNode;
  empty?: boolean;
}) {
  return (
    <figure className="overview-chart card card-body mb-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="h5">
        {title}
      </h2>
      <figcaption className="small text-body-secondary mb-2">{caption}</figcaption>
      <p className="fw-semibold mb-2" id={`${id}-summary`}>
        {summary}
      </p>
      {empty ? null : (
        <>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1) */}
          <section className="chart-scroll" tabIndex={0} aria-label={title}>
            <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" data-testid={`${id}-svg`}>
              <title>{`${title}. ${summary}`}</title>
              {svg}
            </svg>
          </section>
          <details className="mt-2">
            <summary>{tableLabel}</summary>
            <div className="table-responsive">{table}</div>
          </details>
        </>
      )}
    </figure>
  );
}

/** Fill patterns told apart without colour: solid, stripes both ways, dots, cross-hatch, open. */
export function StatusPatterns({ prefix }: { prefix: string }) {
  const size = 8;
  return (
    <defs>
      <pattern id={`${prefix}-new`} width={size} height={size} patternUnits="userSpaceOnUse">
        <rect width={size} height={size} className="pattern-bg s-new" />
      </pattern>
      <pattern
        id={`${prefix}-under_review`}
        width={size}
        height={size}
        patternUnits="userSpaceOnUse"
        patternTransform="rotate(45)"
      >
        <rect width={size} height={size} className="pattern-bg s-under_review" />
        <line x1="0" y1="0" x2="0" y2={size} className="pattern-ink" strokeWidth="3" />
      </pattern>
      <pattern id={`${prefix}-applies`} width={size} height={size} patternUnits="userSpaceOnUse">
        <rect width={size} height={size} className="pattern-bg s-applies" />
        <circle cx={size / 2} cy={size / 2} r="1.8" className="pattern-dot" />
      </pattern>
      <pattern
        id={`${prefix}-does_not_apply`}
        width={size}
        height={size}
        patternUnits="userSpaceOnUse"
        patternTransform="rotate(-45)"
      >
        <rect width={size} height={size} className="pattern-bg s-does_not_apply" />
        <line x1="0" y1="0" x2="0" y2={size} className="pattern-ink" strokeWidth="2" />
      </pattern>
      <pattern id={`${prefix}-in_progress`} width={size} height={size} patternUnits="userSpaceOnUse">
        <rect width={size} height={size} className="pattern-bg s-in_progress" />
        <path d={`M0 ${size / 2}H${size}M${size / 2} 0V${size}`} className="pattern-ink" strokeWidth="1.5" />
      </pattern>
      <pattern id={`${prefix}-done`} width={size} height={size} patternUnits="userSpaceOnUse">
        <rect width={size} height={size} className="pattern-bg s-done" />
      </pattern>
    </defs>
  );
}
