/**
 * The source replay in its own process (scripts/sources-replay.ts --control): arrival times
 * logged there are not skewed by the event loop of the app under test, as they would be with
 * the replay in the test's process. Control through its /__replay/ routes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { ReplayFault, ReplayPublication, ReplayRequest } from "../../app/.server/sources/replay.ts";

export interface ReplayProcess {
  url: string;
  sparqlUrl: string;
  log(): Promise<ReplayRequest[]>;
  publish(publication: ReplayPublication): Promise<void>;
  reset(): Promise<void>;
  /** The replay's faults (ReplayServer.setFaults), patterns as regular expressions. */
  setFaults(faults: ReplayFault[]): Promise<void>;
  /** Consolidated laws as they stood on `date` (null: as recorded), for one law or all. */
  setLawDate(date: string | null, lawId?: string): Promise<void>;
  stop(): Promise<void>;
}

const script = path.resolve(import.meta.dirname, "../../scripts/sources-replay.ts");

export async function startReplayProcess(): Promise<ReplayProcess> {
  const child: ChildProcess = spawn(process.execPath, [script, "--control"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`replay did not start: ${out}`)), 30_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Replay server at (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`replay exited (${code}): ${out}`)));
  });
  child.stdout?.resume();
  const post = async (route: string, body: unknown) => {
    const response = await fetch(`${url}/__replay/${route}`, { method: "POST", body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`replay ${route}: HTTP ${response.status}`);
  };
  return {
    url,
    sparqlUrl: `${url}/webapi/rdf/sparql`,
    // Asked again once: under load a kept-alive connection the replay has just closed can fail.
    log: async () => {
      const read = async () => (await (await fetch(`${url}/__replay/log`)).json()) as ReplayRequest[];
      return read().catch(read);
    },
    publish: (publication) => post("publish", publication),
    reset: () => post("reset", {}),
    setFaults: (faults) =>
      post(
        "faults",
        faults.map((f) => ({ ...f, pattern: f.pattern.source })),
      ),
    setLawDate: (date, lawId) => post("law-date", lawId ? { date, lawId } : { date }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * Resolves once the replay has served a day's documents and then had no request for `quietMs`:
 * the app's jobs have ingested it. The seconds exclude the quiet wait.
 */
export async function ingestedDay(
  replay: Pick<ReplayProcess, "log">,
  { quietMs = 10_000, timeoutMs = 15 * 60_000 } = {},
): Promise<{ documents: number; seconds: number }> {
  const started = performance.now();
  let seen = 0;
  let quietSince = started;
  for (;;) {
    const requests = await replay.log();
    if (requests.length !== seen) {
      seen = requests.length;
      quietSince = performance.now();
    }
    const documents = requests.filter((r) => r.path.includes("xml.php")).length;
    if (documents > 0 && performance.now() - quietSince > quietMs)
      return { documents, seconds: (quietSince - started) / 1000 };
    if (performance.now() - started > timeoutMs)
      throw new Error(`the recorded day was not ingested in ${timeoutMs / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
