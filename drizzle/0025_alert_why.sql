-- Why an alert was sent (decision 0148): the notification centre keeps it with the alert, as the
-- match (alert_matches.reasons) and the delivery payloads do. Null for alerts stored before.
ALTER TABLE "alerts" ADD COLUMN IF NOT EXISTS "why" jsonb;
