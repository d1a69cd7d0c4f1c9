/** The document page's notes and sharing: plain POST forms (they work without JavaScript). */
import { Form } from "react-router";
import type { Locale } from "../../../i18n/locales";
import { FormAlert } from "../form-field";
import { appMessages, fill, formatDateTime } from "../messages";

export interface CollabNote {
  id: string;
  authorName: string;
  visibility: "private" | "group" | "organization";
  groupId: string | null;
  groupName: string | null;
  paragraph: number | null;
  body: string;
  html: string;
  createdAt: string;
  updatedAt: string;
  mine: boolean;
}

export interface CollabData {
  notes: CollabNote[];
  noteGroups: { id: string; name: string }[];
  chatGroups: { id: string; name: string }[];
  shares: {
    action: "share.emailed" | "share.chat";
    by: string;
    at: string;
    members: number;
    outside: number;
    groupName: string | null;
  }[];
}

/** The action's answer as the forms read it. */
export type CollabResult =
  | { ok: "noteCreated" | "noteUpdated" | "noteDeleted" }
  | { ok: "sharedEmail"; members: number; outside: number }
  | { ok: "sharedChat"; group: string }
  | { failure: "not_found" | "no_chat" | "not_member" }
  | { form: string; errors: Record<string, string[]>; values: Record<string, string> };

function Errors({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {errors.join(" ")}
    </div>
  );
}

function NoteFields({
  locale,
  prefix,
  groups,
  values,
  errors,
}: {
  locale: Locale;
  prefix: string;
  groups: { id: string; name: string }[];
  values: { body?: string; visibility?: string; groupId?: string; paragraph?: string };
  errors: Record<string, string[]>;
}) {
  const t = appMessages(locale).docs.notes;
  const invalid = (name: string) => (errors[name]?.length ?? 0) > 0;
  const described = (name: string, extra?: string) =>
    [invalid(name) ? `${prefix}-${name}-error` : null, extra].filter(Boolean).join(" ") || undefined;
  return (
    <>
      <div className="mb-2">
        <label htmlFor={`${prefix}-body`} className="form-label">
          {t.body}
        </label>
        <textarea
          id={`${prefix}-body`}
          name="body"
          rows={3}
          required
          maxLength={10_000}
          defaultValue={values.body ?? ""}
          className={`form-control${invalid("body") ? " is-invalid" : ""}`}
          aria-invalid={invalid("body") || undefined}
          aria-describedby={described("body")}
        />
        <Errors id={`${prefix}-body-error`} errors={errors.body} />
      </div>
      <div className="row g-2">
        <div className="col-sm-4 mb-2">
          <label htmlFor={`${prefix}-visibility`} className="form-label">
            {t.visibility}
          </label>
          <select
            id={`${prefix}-visibility`}
            name="visibility"
            defaultValue={values.visibility ?? "private"}
            className={`form-select${invalid("visibility") ? " is-invalid" : ""}`}
            aria-describedby={described("visibility")}
          >
            <option value="private">{t.visibilities.private}</option>
            {groups.length > 0 ? <option value="group">{t.visibilities.group}</option> : null}
            <option value="organization">{t.visibilities.organization}</option>
          </select>
          <Errors id={`${prefix}-visibility-error`} errors={errors.visibility} />
        </div>
        {groups.length > 0 ? (
          <div className="col-sm-4 mb-2">
            <label htmlFor={`${prefix}-group`} className="form-label">
              {t.group}
            </label>
            <select
              id={`${prefix}-group`}
              name="groupId"
              defaultValue={values.groupId ?? ""}
              className={`form-select${invalid("groupId") ? " is-invalid" : ""}`}
              aria-invalid={invalid("groupId") || undefined}
              aria-describedby={described("groupId")}
            >
              <option value="">{t.noGroup}</option>
              {groups.map((group) => (
                <option key={group.id} value={group.id}>
                  {group.name}
                </option>
              ))}
            </select>
            <Errors id={`${prefix}-groupId-error`} errors={errors.groupId} />
          </div>
        ) : null}
        <div className="col-sm-4 mb-2">
          <label htmlFor={`${prefix}-paragraph`} className="form-label">
            {t.paragraph}
          </label>
          <input
            id={`${prefix}-paragraph`}
            name="paragraph"
            type="number"
            min={1}
            inputMode="numeric"
            defaultValue={values.paragraph ?? ""}
            className={`form-control${invalid("paragraph") ? " is-invalid" : ""}`}
            aria-invalid={invalid("paragraph") || undefined}
            aria-describedby={described("paragraph", `${prefix}-paragraph-hint`)}
          />
          <div id={`${prefix}-paragraph-hint`} className="form-text">
            {t.paragraphHint}
          </div>
          <Errors id={`${prefix}-paragraph-error`} errors={errors.paragraph} />
        </div>
      </div>
    </>
  );
}

export function DocumentNotes({
  locale,
  collab,
  result,
  annotate,
}: {
  locale: Locale;
  collab: CollabData;
  result: CollabResult | undefined;
  annotate: number | null;
}) {
  const app = appMessages(locale);
  const t = app.docs.notes;
  const invalid = result && "form" in result ? result : undefined;
  const notice =
    result && "ok" in result
      ? result.ok === "noteCreated"
        ? t.created
        : result.ok === "noteUpdated"
          ? t.updated
          : result.ok === "noteDeleted"
            ? t.deleted
            : undefined
      : undefined;
  const newValues =
    invalid?.form === "note-new" ? invalid.values : { paragraph: annotate ? String(annotate) : undefined };
  return (
    <section aria-labelledby="doc-notes" className="mb-4" id="notes">
      <h2 id="doc-notes" className="h5">
        {t.title}
      </h2>
      <p className="small text-body-secondary">{t.lead}</p>
      <FormAlert kind="success">{notice}</FormAlert>
      {collab.notes.length === 0 ? <p className="small">{t.none}</p> : null}
      <ul className="list-unstyled" data-testid="notes">
        {collab.notes.map((note) => {
          const date = formatDateTime(note.createdAt, locale);
          const edited = note.updatedAt !== note.createdAt;
          const errors = invalid?.form === `note-${note.id}` ? invalid.errors : {};
          return (
            <li key={note.id} className="card mb-2" data-testid="note">
              <div className="card-body py-2">
                <p className="small text-body-secondary mb-1">
                  {fill(t.by, { name: note.authorName, date })}
                  {edited ? ` (${t.edited})` : ""} ·{" "}
                  {note.visibility === "group" && note.groupName
                    ? `${t.visibilities.group}: ${note.groupName}`
                    : t.visibilities[note.visibility]}
                  {note.paragraph !== null ? (
                    <>
                      {" · "}
                      <a href={`#p-${note.paragraph}`}>{fill(t.anchor, { number: note.paragraph + 1 })}</a>
                    </>
                  ) : null}
                </p>
                {/* Safe HTML: collab/markdown.ts escapes the text and emits only its own tags and checked links. */}
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown's output is escaped and allow-listed */}
                <div className="note-body" dangerouslySetInnerHTML={{ __html: note.html }} />
                {note.mine ? (
                  <div className="d-flex flex-wrap gap-2 align-items-start">
                    <details className="flex-grow-1" open={Object.keys(errors).length > 0}>
                      <summary className="small" aria-label={fill(t.editLabel, { date })}>
                        {t.edit}
                      </summary>
                      <Form method="post" noValidate className="mt-2">
                        <input type="hidden" name="intent" value="note.update" />
                        <input type="hidden" name="id" value={note.id} />
                        <NoteFields
                          locale={locale}
                          prefix={`note-${note.id}`}
                          groups={collab.noteGroups}
                          values={
                            invalid?.form === `note-${note.id}`
                              ? invalid.values
                              : {
                                  body: note.body,
                                  visibility: note.visibility,
                                  groupId: note.groupId ?? "",
                                  paragraph: note.paragraph !== null ? String(note.paragraph + 1) : "",
                                }
                          }
                          errors={errors}
                        />
                        <button type="submit" className="btn btn-primary btn-sm">
                          {t.update}
                        </button>
                      </Form>
                    </details>
                    <Form method="post">
                      <input type="hidden" name="intent" value="note.delete" />
                      <input type="hidden" name="id" value={note.id} />
                      <button
                        type="submit"
                        className="btn btn-outline-danger btn-sm"
                        aria-label={fill(t.deleteLabel, { date })}
                      >
                        {t.delete}
                      </button>
                    </Form>
                  </div>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      <h3 className="h6" id="note-new">
        {t.new}
      </h3>
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="note.create" />
        <NoteFields
          locale={locale}
          prefix="note-new"
          groups={collab.noteGroups}
          values={newValues}
          errors={invalid?.form === "note-new" ? invalid.errors : {}}
        />
        <button type="submit" className="btn btn-primary btn-sm">
          {t.save}
        </button>
      </Form>
    </section>
  );
}

export function DocumentShare({
  locale,
  collab,
  result,
}: {
  locale: Locale;
  collab: CollabData;
  result: CollabResult | undefined;
}) {
  const app = appMessages(locale);
  const t = app.docs.share;
  const invalid = result && "form" in result ? result : undefined;
  const emailErrors = invalid?.form === "share-email" ? invalid.errors : {};
  const chatErrors = invalid?.form === "share-chat" ? invalid.errors : {};
  const notice =
    result && "ok" in result
      ? result.ok === "sharedEmail"
        ? fill(t.sentEmail, { members: result.members, outside: result.outside })
        : result.ok === "sharedChat"
          ? fill(t.sentChat, { group: result.group })
          : undefined
      : undefined;
  const failure =
    result && "failure" in result
      ? result.failure === "no_chat"
        ? t.noChat
        : result.failure === "not_member"
          ? t.notMember
          : app.errors.not_found
      : undefined;
  const recipientsInvalid = (emailErrors.recipients?.length ?? 0) > 0;
  const messageInvalid = (emailErrors.message?.length ?? 0) > 0;
  return (
    <section aria-labelledby="doc-share" className="card mb-3" id="share">
      <div className="card-body">
        <h2 id="doc-share" className="h5">
          {t.title}
        </h2>
        <FormAlert kind="success">{notice}</FormAlert>
        <FormAlert kind="danger">{failure}</FormAlert>
        <h3 className="h6">{t.email}</h3>
        <p className="small text-body-secondary">{t.emailLead}</p>
        <Form method="post" noValidate className="mb-3">
          <input type="hidden" name="intent" value="share.email" />
          <div className="mb-2">
            <label htmlFor="share-recipients" className="form-label">
              {t.recipients}
            </label>
            <input
              id="share-recipients"
              name="recipients"
              type="text"
              inputMode="email"
              autoComplete="off"
              defaultValue={invalid?.form === "share-email" ? (invalid.values.recipients ?? "") : ""}
              className={`form-control form-control-sm${recipientsInvalid ? " is-invalid" : ""}`}
              aria-invalid={recipientsInvalid || undefined}
              aria-describedby={recipientsInvalid ? "share-recipients-error" : undefined}
            />
            <Errors id="share-recipients-error" errors={emailErrors.recipients} />
          </div>
          <div className="mb-2">
            <label htmlFor="share-message" className="form-label">
              {t.message}
            </label>
            <textarea
              id="share-message"
              name="message"
              rows={2}
              maxLength={2000}
              defaultValue={invalid?.form === "share-email" ? (invalid.values.message ?? "") : ""}
              className={`form-control form-control-sm${messageInvalid ? " is-invalid" : ""}`}
              aria-invalid={messageInvalid || undefined}
              aria-describedby={messageInvalid ? "share-message-error" : undefined}
            />
            <Errors id="share-message-error" errors={emailErrors.message} />
          </div>
          <button type="submit" className="btn btn-primary btn-sm">
            {t.send}
          </button>
        </Form>
        <h3 className="h6">{t.chat}</h3>
        <p className="small text-body-secondary">{t.chatLead}</p>
        {collab.chatGroups.length === 0 ? (
          <p className="small">{t.noGroups}</p>
        ) : (
          <Form method="post" noValidate className="mb-3">
            <input type="hidden" name="intent" value="share.chat" />
            <div className="mb-2">
              <label htmlFor="share-group" className="form-label">
                {t.group}
              </label>
              <select
                id="share-group"
                name="groupId"
                className={`form-select form-select-sm${chatErrors.groupId ? " is-invalid" : ""}`}
                aria-describedby={chatErrors.groupId ? "share-group-error" : undefined}
              >
                {collab.chatGroups.map((group) => (
                  <option key={group.id} value={group.id}>
                    {group.name}
                  </option>
                ))}
              </select>
              <Errors id="share-group-error" errors={chatErrors.groupId} />
            </div>
            <button type="submit" className="btn btn-primary btn-sm">
              {t.post}
            </button>
          </Form>
        )}
        <h3 className="h6">{t.history}</h3>
        {collab.shares.length === 0 ? <p className="small mb-0">{t.noShares}</p> : null}
        <ul className="list-unstyled small mb-0" data-testid="shares">
          {collab.shares.map((share) => (
            <li key={`${share.at}-${share.by}`} className="mb-1">
              {share.action === "share.emailed"
                ? fill(t.emailed, {
                    by: share.by,
                    members: share.members,
                    outside: share.outside,
                    date: formatDateTime(share.at, locale),
                  })
                : fill(t.chatted, {
                    by: share.by,
                    group: share.groupName ?? "—",
                    date: formatDateTime(share.at, locale),
                  })}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
