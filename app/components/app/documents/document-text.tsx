/** One block of the text as the parser gives it (app/.server/documents/types.ts Paragraph). */
export interface TextParagraph {
  kind: "heading" | "paragraph" | "table";
  text: string;
}

/** The text from the parser's structured paragraphs, as React elements (never the source's HTML). */
export function DocumentText({ paragraphs, lang }: { paragraphs: readonly TextParagraph[]; lang: string }) {
  return (
    <div className="doc-text" lang={lang}>
      {paragraphs.map((paragraph, index) => {
        const id = `p-${index}`;
        const n = index + 1;
        if (paragraph.kind === "heading")
          return (
            <h3 key={id} id={id} data-n={n} className="h6 mt-4 fw-semibold">
              {paragraph.text}
            </h3>
          );
        if (paragraph.kind === "table")
          return (
            <div key={id} id={id} data-n={n} className="doc-table small">
              {paragraph.text}
            </div>
          );
        return (
          <p key={id} id={id} data-n={n}>
            {paragraph.text}
          </p>
        );
      })}
    </div>
  );
}
