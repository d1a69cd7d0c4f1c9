import { useRouteLoaderData } from "react-router";
import type { Messages } from "./es";

export type PageMessages = Pick<Messages, "home" | "contact">;

/** The home page's copy in its locale, as its loader sent it. */
export function usePageMessages(): PageMessages {
  const data = useRouteLoaderData("home") as { messages?: PageMessages } | undefined;
  if (!data?.messages) throw new Error("usePageMessages() is only available on the home page");
  return data.messages;
}
