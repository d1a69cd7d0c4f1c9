import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { installChunkReload } from "./lib/chunk-reload";

/** Hydrates server-rendered output; renders afresh when there is none. */
export function startApp(doc: Document = document): void {
  const app = (
    <StrictMode>
      <HydratedRouter />
    </StrictMode>
  );
  const serverRendered = doc.body !== null && doc.body.childElementCount > 0;
  startTransition(() => {
    if (serverRendered) hydrateRoot(doc, app);
    else createRoot(doc).render(app);
  });
}

installChunkReload();
try {
  startApp();
} catch (error) {
  console.error("Error while mounting the app:", error);
  throw error;
}
