import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { Locale } from "../../i18n/locales";
import { alertMessages, fill, formatDateTime } from "./messages";

export interface ShellAlert {
  alertId: number;
  documentId: string;
  title: string;
  profileName: string | null;
  /** Why it matched, in the reader's language (the Alerts page's sentence); null for older alerts. */
  why: string | null;
  createdAt: string;
  read: boolean;
}

/** What the /app layout's loader gives the notification centre. */
export interface AlertSummary {
  unread: number;
  /** The newest alert id at render: the event stream starts after it, so nothing falls in between. */
  latestId: number;
  recent: ShellAlert[];
}

const shown = 8;

/**
 * The notification centre in the app shell: unread count and recent alerts, a disclosure that
 * works without JavaScript (with a link to /app/alerts); with JavaScript, live from /app/events,
 * each new alert announced in a polite live region.
 */
export function NotificationCentre({ locale, summary }: { locale: Locale; summary: AlertSummary }) {
  const t = alertMessages(locale);
  const [state, setState] = useState(summary);
  const [announcement, setAnnouncement] = useState("");
  const fetcher = useFetcher();
  const startAfter = useRef(summary.latestId);

  // Fresh loader data (navigation, mark read) replaces what the stream added.
  useEffect(() => {
    setState(summary);
    startAfter.current = Math.max(startAfter.current, summary.latestId);
  }, [summary]);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const onAlert = (message: MessageEvent<string>) => {
      let event: {
        alertId: number;
        documentId: string;
        title: string;
        profileId: string;
        profileName?: string | null;
        why?: string | null;
      };
      try {
        event = JSON.parse(message.data);
      } catch {
        return;
      }
      failures = 0;
      startAfter.current = Math.max(startAfter.current, event.alertId);
      setState((current) => {
        if (current.recent.some((alert) => alert.alertId === event.alertId) || event.alertId <= current.latestId)
          return current;
        const alert: ShellAlert = {
          alertId: event.alertId,
          documentId: event.documentId,
          title: event.title,
          profileName: event.profileName ?? null,
          why: event.why ?? null,
          createdAt: new Date().toISOString(),
          read: false,
        };
        return {
          unread: current.unread + 1,
          latestId: event.alertId,
          recent: [alert, ...current.recent].slice(0, shown),
        };
      });
      setAnnouncement(
        event.why
          ? fill(t.centre.announceWhy, { title: event.title, why: event.why })
          : fill(t.centre.announce, { title: event.title }),
      );
    };
    const connect = () => {
      source = new EventSource(`/app/events?lastEventId=${startAfter.current}`);
      source.addEventListener("alert", onAlert as EventListener);
      source.addEventListener("open", () => {
        failures = 0;
      });
      // EventSource retries lost connections by itself, but gives up on an error status (a
      // 503 from an instance that is shutting down): start again later, backing off to a minute.
      source.addEventListener("error", () => {
        if (source?.readyState !== EventSource.CLOSED) return;
        failures++;
        retry = setTimeout(connect, Math.min(60_000, 2_000 * 2 ** failures) * (0.5 + Math.random() / 2));
      });
    };
    connect();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [t]);

  const unreadLabel = fill(t.centre.unread, { count: state.unread });
  return (
    <>
      <details className="app-menu app-alerts position-relative">
        <summary className="btn btn-outline-secondary btn-sm" data-testid="alerts-button">
          {t.centre.button}{" "}
          <span
            className={`badge rounded-pill ${state.unread > 0 ? "text-bg-danger" : "text-bg-secondary"}`}
            data-testid="unread-count"
            aria-hidden="true"
          >
            {state.unread}
          </span>
          <span className="visually-hidden">{`, ${unreadLabel}`}</span>
        </summary>
        <div className="card position-absolute end-0 mt-1 shadow-sm app-menu-panel app-alerts-panel">
          <div className="card-body py-2">
            {/* Not a heading: the panel sits in the header, before the page's own <h1>. */}
            <p className="h6 mb-2" id="recent-alerts-title">
              {t.centre.recent}
            </p>
            {state.recent.length === 0 ? (
              <p className="small text-body-secondary mb-2">{t.centre.none}</p>
            ) : (
              <ul className="list-unstyled mb-2" data-testid="recent-alerts" aria-labelledby="recent-alerts-title">
                {state.recent.map((alert) => (
                  <li key={alert.alertId} className="mb-2">
                    <a href={`/app/documents/${alert.documentId}`} className={alert.read ? "text-body" : "fw-semibold"}>
                      {alert.title}
                    </a>
                    {alert.why ? (
                      <p className="small mb-0" data-testid="recent-alert-why">
                        <span className="visually-hidden">{`${t.centre.why}: `}</span>
                        {alert.why}
                      </p>
                    ) : null}
                    <div className="small text-body-secondary">
                      {alert.read ? null : <span className="visually-hidden">{`${t.inbox.unreadBadge}. `}</span>}
                      {alert.profileName ? `${alert.profileName} · ` : ""}
                      {formatDateTime(alert.createdAt, locale)}
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <div className="d-flex flex-wrap gap-2 align-items-center">
              <a href="/app/alerts" className="me-auto">
                {t.centre.all}
              </a>
              {state.unread > 0 ? (
                <fetcher.Form method="post" action="/app/alerts">
                  <input type="hidden" name="intent" value="read-all" />
                  <button type="submit" className="btn btn-sm btn-outline-secondary">
                    {t.centre.markAll}
                  </button>
                </fetcher.Form>
              ) : null}
            </div>
          </div>
        </div>
      </details>
      <div
        role="status"
        aria-live="polite"
        aria-atomic="true"
        className="visually-hidden"
        data-testid="alert-announcer"
      >
        {announcement}
      </div>
    </>
  );
}
