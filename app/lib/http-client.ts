/** The browser's HTTP client: ofetch with its default retry (GET once on 408, 409, 425, 429, 5xx gateway errors). */
import { FetchError, type FetchOptions, ofetch } from "ofetch";

/** An HTTP failure carrying the server's statusMessage, as the error catalogue asks. */
export class HttpError extends Error {
  override name = "HttpError";
  readonly statusCode: number | undefined;
  readonly statusMessage: string | undefined;
  readonly data: unknown;

  constructor(message: string, statusCode: number | undefined, statusMessage: string | undefined, data: unknown) {
    super(message);
    this.statusCode = statusCode;
    this.statusMessage = statusMessage;
    this.data = data;
  }
}

function statusMessageOf(data: unknown): string | undefined {
  if (data && typeof data === "object" && "statusMessage" in data) {
    const message = (data as { statusMessage: unknown }).statusMessage;
    if (typeof message === "string" && message) return message;
  }
  return undefined;
}

export function createHttpClient(baseURL: string) {
  const client = ofetch.create({ baseURL });
  return async function request<T>(path: string, options?: FetchOptions<"json">): Promise<T> {
    try {
      return await client<T>(path, options);
    } catch (error) {
      if (error instanceof FetchError) {
        const statusMessage = statusMessageOf(error.data) ?? error.statusMessage;
        throw new HttpError(statusMessage ?? error.message, error.statusCode, statusMessage, error.data);
      }
      throw error;
    }
  };
}

/** Same-origin client used by the site's own scripts. */
export const http = createHttpClient("/");
