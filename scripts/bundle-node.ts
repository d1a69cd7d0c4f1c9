/**
 * Bundles a TypeScript entry and the project's own modules it imports into one JavaScript file
 * for Node (packages stay imports from node_modules). A process started from plain JavaScript
 * never loads Node's type stripper (amaro: SWC compiled to WebAssembly), about 17 MB of resident
 * memory it would otherwise carry for its whole life (decision 0165). `outFile` should sit at the
 * same depth below the project's root as `entry` when the code resolves paths from
 * `import.meta.dirname`.
 */
import path from "node:path";
import { build } from "vite";

export const projectRoot = path.resolve(import.meta.dirname, "..");

export async function bundleNodeEntry(entry: string, outFile: string): Promise<void> {
  await build({
    configFile: false,
    root: projectRoot,
    logLevel: "warn",
    build: {
      ssr: path.resolve(projectRoot, entry),
      outDir: path.dirname(path.resolve(projectRoot, outFile)),
      emptyOutDir: false,
      target: "node24",
      minify: false,
      sourcemap: false,
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: path.basename(outFile), format: "es", codeSplitting: false } },
    },
    ssr: { target: "node" },
  });
}
