import type { DiffRow, DiffSegment } from "../../../.server/law-texts/diff";
import type { LawsMessages } from "./messages";

type CompareMessages = LawsMessages["compare"];

/**
 * One segment: insertions in <ins>, deletions in <del>, each announced by visually hidden text
 * (screen readers do not say ins/del) and marked by more than colour (underline, strike-through).
 */
function Segment({ segment, t }: { segment: DiffSegment; t: CompareMessages }) {
  if (segment.kind === "same") return <>{segment.text}</>;
  if (segment.kind === "ins") {
    return (
      <ins className="law-ins">
        <span className="visually-hidden">{t.insertedMark}</span>
        {segment.text}
        <span className="visually-hidden">{t.insertedEnd}</span>
      </ins>
    );
  }
  return (
    <del className="law-del">
      <span className="visually-hidden">{t.deletedMark}</span>
      {segment.text}
      <span className="visually-hidden">{t.deletedEnd}</span>
    </del>
  );
}

function Segments({ segments, t }: { segments: DiffSegment[]; t: CompareMessages }) {
  return (
    <>
      {segments.map((segment, i) => (
        // Segments never reorder: the index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list rendered once
        <Segment key={i} segment={segment} t={t} />
      ))}
    </>
  );
}

export function DiffLegend({ t }: { t: CompareMessages }) {
  return (
    <p className="law-diff-legend small mb-3">
      <span className="me-3">{t.legend}:</span>
      <ins className="law-ins me-3">{t.inserted}</ins>
      <del className="law-del">{t.deleted}</del>
    </p>
  );
}

/** The comparison as one text: each paragraph with its deletions and insertions in place. */
export function InlineDiff({ rows, t }: { rows: DiffRow[]; t: CompareMessages }) {
  return (
    <div className="law-diff law-diff-inline" data-testid="diff-inline">
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are a fixed list
        <p key={i} className={`law-row law-row-${row.kind}`}>
          {row.kind === "added" ? <span className="badge text-bg-light border me-2">{t.addedParagraph}</span> : null}
          {row.kind === "removed" ? (
            <span className="badge text-bg-light border me-2">{t.removedParagraph}</span>
          ) : null}
          <Segments segments={row.inline} t={t} />
        </p>
      ))}
    </div>
  );
}

/** The comparison side by side: the earlier wording left, the later right, paragraph by paragraph. */
export function SideBySideDiff({ rows, t }: { rows: DiffRow[]; t: CompareMessages }) {
  return (
    <div className="table-responsive law-diff law-diff-side" data-testid="diff-side">
      <table className="table table-sm align-top">
        <thead>
          <tr>
            <th scope="col" className="w-50">
              {t.before}
            </th>
            <th scope="col" className="w-50">
              {t.after}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are a fixed list
            <tr key={i} className={`law-row law-row-${row.kind}`}>
              <td>
                {row.left ? (
                  <Segments segments={row.left} t={t} />
                ) : (
                  <span className="visually-hidden">{t.addedParagraph}</span>
                )}
              </td>
              <td>
                {row.right ? (
                  <Segments segments={row.right} t={t} />
                ) : (
                  <span className="visually-hidden">{t.removedParagraph}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
