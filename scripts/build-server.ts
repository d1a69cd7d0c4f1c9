/**
 * `npm run build`, after the app: the server's entry (server/main.ts and the server/ modules it
 * imports) as plain JavaScript at build/main.js, which `npm start` and `npm run serve` run with
 * Node's type stripping off. A server started from server/main.ts carried the type stripper for
 * its whole life, about 17 MB of resident memory for a few files read once (decision 0165). The
 * built app (build/server/index.js) stays a file of its own, imported at run time as before.
 * `npm run dev` still runs server/main.ts.
 */

import { serverEntry } from "../server/runtime-flags.ts";
import { bundleNodeEntry } from "./bundle-node.ts";

await bundleNodeEntry("server/main.ts", serverEntry);
