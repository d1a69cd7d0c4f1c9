import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";

type CellProps = { "data-label"?: string; children?: ReactNode };

/** Nothing to show: no child, or only null, false and empty strings. */
function isEmpty(children: ReactNode): boolean {
  return Children.toArray(children).every((child) => typeof child === "string" && child.trim() === "");
}

/**
 * Gives each <td> of a row its column's label (by position; "" leaves a cell unlabelled). An empty
 * cell gets no label: on a phone a label with nothing under it (the owner's own "Actions") reads
 * as something missing.
 */
function labelRow(row: ReactNode, labels: readonly string[]): ReactNode {
  if (!isValidElement<{ children?: ReactNode }>(row) || row.type !== "tr") return row;
  let column = 0;
  const cells = Children.map(row.props.children, (cell) => {
    if (!isValidElement<CellProps>(cell) || (cell.type !== "td" && cell.type !== "th")) return cell;
    const label = labels[column++];
    return label && !isEmpty(cell.props.children)
      ? cloneElement(cell as ReactElement<CellProps>, { "data-label": label })
      : cell;
  });
  return cloneElement(row, {}, cells);
}

/**
 * A table that becomes one card per row on a phone (below 768 px, `.table-cards` in
 * platform.scss): each body cell shows its column's label above its value, so dates and names
 * keep their width instead of being cut. `labels` are the columns' names in order; rows must be
 * <tr> elements written in the table's body (or arrays of them), cells <td>/<th> inside them.
 */
export function CardTable({
  labels,
  className = "",
  children,
  ...rest
}: {
  labels: readonly string[];
  className?: string;
  children: ReactNode;
  "data-testid"?: string;
}) {
  const body = Children.map(children, (part) => {
    if (!isValidElement<{ children?: ReactNode }>(part) || part.type !== "tbody") return part;
    return cloneElement(
      part,
      {},
      Children.map(part.props.children, (row) => labelRow(row, labels)),
    );
  });
  return (
    <table className={`${className} table-cards`} {...rest}>
      {body}
    </table>
  );
}
