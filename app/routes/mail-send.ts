import type { Route } from "./+types/mail-send";

// Placeholder: POST /mail/send belongs to the contact issue.
export function loader(_: Route.LoaderArgs) {
  return Response.json(
    { statusCode: 405, statusMessage: "Method Not Allowed" },
    { status: 405, headers: { Allow: "POST" } },
  );
}

export function action(_: Route.ActionArgs) {
  return Response.json({ statusCode: 503, statusMessage: "Not available yet" }, { status: 503 });
}
