/**
 * A search snippet as React elements: the server's safe snippet (escaped text with <mark> only)
 * is split on its marks and unescaped into text nodes, so nothing is injected as HTML.
 */
const entities: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const unescapeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity] ?? entity);

export function snippetParts(snippet: string): { text: string; marked: boolean }[] {
  return snippet
    .split(/(<mark>[^<]*<\/mark>)/)
    .filter((part) => part !== "")
    .map((part) =>
      part.startsWith("<mark>")
        ? { text: unescapeEntities(part.slice(6, -7)), marked: true }
        : { text: unescapeEntities(part), marked: false },
    );
}

export function Snippet({ snippet, lang }: { snippet: string; lang: string }) {
  return (
    <p className="doc-snippet small mb-1" lang={lang}>
      {snippetParts(snippet).map((part, index) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never move
        part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </p>
  );
}
