import { useState } from "react";
import type { Locale } from "../../i18n/locales";
import { appMessages } from "./messages";

/**
 * Recovery codes with a way to keep them: a text file to download (works without JavaScript)
 * and a copy to the clipboard, with its outcome announced.
 */
export function RecoveryCodes({
  codes,
  locale,
  className = "",
}: {
  codes: string[];
  locale: Locale;
  className?: string;
}) {
  const t = appMessages(locale).recoveryCodes;
  const [copied, setCopied] = useState<"" | "done" | "failed">("");
  const text = `${t.fileHeading}\n\n${codes.join("\n")}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <>
      <ol className={`font-monospace ${className}`} data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="d-flex flex-wrap gap-2 align-items-center mb-3">
        <a
          className="btn btn-sm btn-outline-secondary"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download={t.fileName}
        >
          {t.download}
        </a>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={copy}>
          {t.copy}
        </button>
        <span role="status" className="small">
          {copied === "done" ? t.copied : copied === "failed" ? t.copyFailed : ""}
        </span>
      </div>
    </>
  );
}
