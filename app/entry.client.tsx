import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot, type RootOptions } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { installChunkReload } from "./lib/chunk-reload";

/** A start that failed, synchronously or while React rendered: logged, then rethrown. */
function mountFailed(error: unknown): never {
  console.error("Error while mounting the app:", error);
  throw error;
}

/** Hydrates server-rendered output; renders afresh when there is none. */
export function startApp(doc: Document = document): void {
  const app = (
    <StrictMode>
      <HydratedRouter />
    </StrictMode>
  );
  const options: RootOptions = { onUncaughtError: (error) => mountFailed(error) };
  const serverRendered = doc.body !== null && doc.body.childElementCount > 0;
  startTransition(() => {
    if (serverRendered) hydrateRoot(doc, app, options);
    else createRoot(doc, options).render(app);
  });
}

installChunkReload();
try {
  startApp();
} catch (error) {
  mountFailed(error);
}
