/**
 * The one HTML escaper (mail bodies, the notes' Markdown, notification mails): & < > " ' as
 * numeric references, safe in text and in quoted attribute values.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
