/** The API's own description. */
import { z } from "zod";
import { defineOperation } from "../registry.ts";

export const openApiOperation = defineOperation({
  method: "get",
  path: "/api/v1/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "This API's OpenAPI 3.1 description",
  tags: ["meta"],
  scope: "public",
  responses: {
    200: {
      description: "The OpenAPI document",
      schema: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
    },
  },
});
