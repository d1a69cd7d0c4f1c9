import { Form } from "react-router";
import { failedDeliveries, retryDeadDeliveries } from "../../.server/alerts/worker";
import { recordAudit } from "../../.server/audit/record";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { CardTable } from "../../components/app/card-table";
import { FormAlert } from "../../components/app/form-field";
import { alertMessages, fill, formatDateTime } from "../../components/app/messages";
import type { Route } from "./+types/admin-deliveries";

export const handle = { layout: "bare" };

/** Where a delivery goes, for an admin's eyes: a member's email, a chat webhook's host only (its URL is a secret), a webhook id. */
function destination(channel: string, recipient: string, emails: Map<string, string>): string {
  if (channel === "inapp" || channel === "email") return emails.get(recipient) ?? recipient;
  if (channel === "chat") {
    try {
      return `${new URL(recipient).host}/…`;
    } catch {
      return "—";
    }
  }
  return recipient;
}

export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "deliveries.manage");
  const { alerts } = context.get(servicesContext);
  const rows = await failedDeliveries(alerts.database, member.organizationId, 200);
  const users = await alerts.directory.users([
    ...new Set(rows.filter((r) => r.channel === "inapp" || r.channel === "email").map((r) => r.recipient)),
  ]);
  const emails = new Map([...users].map(([id, user]) => [id, user.email]));
  return {
    locale: appLocale(context),
    rows: rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      destination: destination(row.channel, row.recipient, emails),
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt.toISOString(),
      nextAttemptAt: row.status === "dead" ? null : row.nextAttemptAt.toISOString(),
    })),
  };
}

/** intent=retry (`id`) or retry-all: dead deliveries of the organisation queued again, audited. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "deliveries.manage");
  const t = alertMessages(appLocale(context));
  const { alerts } = context.get(servicesContext);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  let ids: string[] = [];
  if (intent === "retry") ids = [String(form.get("id") ?? "")];
  else if (intent === "retry-all")
    ids = (await failedDeliveries(alerts.database, member.organizationId, 1000))
      .filter((row) => row.status === "dead")
      .map((row) => row.id);
  const meta = requestMeta(request, context);
  // The re-queue is one statement; its audit event follows (an admin action of no consequence if lost).
  const count = await retryDeadDeliveries(alerts.database, member.organizationId, ids);
  if (count > 0)
    await recordAudit(alerts.database.db, {
      organizationId: member.organizationId,
      actor: { id: member.userId, email: member.email },
      action: "delivery.retried",
      object: { type: "delivery", id: ids.length === 1 ? (ids[0] ?? "") : "*" },
      ip: meta.ip,
      userAgent: meta.userAgent,
      detail: { count },
    });
  if (count > 0) alerts.worker.wake();
  return { done: fill(t.deliveries.retried, { count }) };
}

export default function AdminDeliveries({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, rows } = loaderData;
  const t = alertMessages(locale);
  const anyDead = rows.some((row) => row.status === "dead");
  return (
    <>
      <h1 className="h3">{t.deliveries.title}</h1>
      <p className="text-body-secondary">{t.deliveries.lead}</p>
      <FormAlert kind="success">{actionData?.done}</FormAlert>
      {rows.length === 0 ? (
        <p className="text-body-secondary">{t.deliveries.empty}</p>
      ) : (
        <>
          {anyDead ? (
            <Form method="post" className="mb-3">
              <input type="hidden" name="intent" value="retry-all" />
              <button type="submit" className="btn btn-primary btn-sm">
                {t.deliveries.retryAll}
              </button>
            </Form>
          ) : null}
          <div className="table-responsive">
            <CardTable
              labels={[
                t.deliveries.channel,
                t.deliveries.recipient,
                t.deliveries.status,
                t.deliveries.attempts,
                t.deliveries.error,
                t.deliveries.created,
                t.deliveries.next,
                "",
              ]}
              className="table table-sm align-middle"
              data-testid="failed-deliveries"
            >
              <thead>
                <tr>
                  <th scope="col">{t.deliveries.channel}</th>
                  <th scope="col">{t.deliveries.recipient}</th>
                  <th scope="col">{t.deliveries.status}</th>
                  <th scope="col">{t.deliveries.attempts}</th>
                  <th scope="col">{t.deliveries.error}</th>
                  <th scope="col">{t.deliveries.created}</th>
                  <th scope="col">{t.deliveries.next}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t.deliveries.retry}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td>{t.deliveries.channels[row.channel as "email"] ?? row.channel}</td>
                    <td className="text-break">{row.destination}</td>
                    <td>{t.deliveries.statuses[row.status as "dead"] ?? row.status}</td>
                    <td>{row.attempts}</td>
                    <td className="text-break small">
                      <code>{row.lastError ?? "—"}</code>
                    </td>
                    <td className="text-nowrap">{formatDateTime(row.createdAt, locale)}</td>
                    <td className="text-nowrap">
                      {row.nextAttemptAt ? formatDateTime(row.nextAttemptAt, locale) : "—"}
                    </td>
                    <td>
                      {row.status === "dead" ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="retry" />
                          <input type="hidden" name="id" value={row.id} />
                          <button
                            type="submit"
                            className="btn btn-sm btn-outline-primary"
                            aria-label={`${t.deliveries.retry}: ${row.destination}`}
                          >
                            {t.deliveries.retry}
                          </button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </CardTable>
          </div>
        </>
      )}
    </>
  );
}
