import { apiNotFound } from "../../.server/api/handler";

/** Any /api path without an operation: a JSON 404, whatever the method. */
export const loader = apiNotFound;
export const action = apiNotFound;
