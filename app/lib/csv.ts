/**
 * CSV for spreadsheets: RFC 4180 quoting, and formula injection neutralised (a cell starting
 * with = + - @ tab or CR gets a leading apostrophe, so Excel and LibreOffice show it as text).
 */
export function csvCell(value: unknown): string {
  let text = value instanceof Date ? value.toISOString() : value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV document: a header line, then one line per row, CRLF line ends. */
export function csvDocument(header: readonly string[], rows: Iterable<readonly unknown[]>): string {
  const lines = [header.map(csvCell).join(",")];
  for (const row of rows) lines.push(row.map(csvCell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
