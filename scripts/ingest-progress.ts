/**
 * Progress of `npm run platform -- ingest`: on a terminal, a bar (cli-progress) with the day
 * being ingested, its documents, the rate and the time left, the run's log lines printed above
 * it; elsewhere (a pipe, a CI log, a cron mail) plain lines, one when a day's size is known,
 * then at most one every `intervalMs`, and one when it is done.
 */
import { MultiBar, Presets } from "cli-progress";
import type { IngestLog, IngestProgress } from "../app/.server/sources/ingest.ts";
import { formatDuration } from "../app/.server/sources/progress.ts";

export interface IngestReporter {
  log: IngestLog;
  onProgress(progress: IngestProgress): void;
  stop(): void;
}

export interface ReporterOptions {
  /** How many days or feeds the run ingests (BOE days and EUR-Lex count one each). */
  units: number;
  stream?: NodeJS.WriteStream;
  /** Defaults to the stream's isTTY. */
  tty?: boolean;
  intervalMs?: number;
  now?: () => number;
}

const unitName = (p: IngestProgress) => (p.date ? `${p.source} ${p.date}` : p.source);

export function createIngestReporter(options: ReporterOptions): IngestReporter {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? Boolean(stream.isTTY);
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 5000;
  const started = now();
  const seen: string[] = [];
  /** Documents handled in finished units, plus the current unit's. */
  let finishedDocs = 0;
  let current: IngestProgress | undefined;
  let lastLineAt = Number.NEGATIVE_INFINITY;

  const rate = () => {
    const seconds = (now() - started) / 1000;
    const done = finishedDocs + (current?.done ?? 0);
    return seconds > 0 ? done / seconds : 0;
  };
  const left = (p: IngestProgress) => {
    const r = rate();
    return r > 0 ? Math.round((p.listed - p.done) / r) : null;
  };
  const enter = (p: IngestProgress) => {
    const name = unitName(p);
    if (seen.at(-1) === name) return false;
    if (current) finishedDocs += current.done;
    seen.push(name);
    return true;
  };

  const line = (message: string) => stream.write(`${message}\n`);
  const format = (obj: object, msg?: string) => `${msg ?? ""} ${JSON.stringify(obj)}`.trim();

  if (!tty) {
    return {
      log: {
        info: (obj, msg) => line(format(obj, msg)),
        warn: (obj, msg) => line(`warning: ${format(obj, msg)}`),
        error: (obj, msg) => line(`error: ${format(obj, msg)}`),
      },
      onProgress(p) {
        const entered = enter(p);
        current = p;
        const last = p.done >= p.listed;
        if (!entered && !last && now() - lastLineAt < interval) return;
        lastLineAt = now();
        const percent = p.listed > 0 ? Math.floor((p.done * 100) / p.listed) : 100;
        line(
          `progress: day ${seen.length}/${options.units} ${unitName(p)}: ${p.done}/${p.listed} documents (${percent}%), ` +
            `${p.created} new, ${p.failed} failed, ${rate().toFixed(1)} documents/s, ${last ? "done" : left(p) === null ? "estimating the time left" : `about ${formatDuration(left(p))} left`}`,
        );
      },
      stop() {},
    };
  }

  const bars = new MultiBar(
    {
      stream,
      format:
        " {bar} {percentage}% | day {day}/{days} {unit} | {value}/{total} documents | {rate} documents/s | {left} left",
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      etaBuffer: 50,
      fps: 5,
    },
    Presets.shades_classic,
  );
  const payload = (p: IngestProgress) => ({
    day: seen.length,
    days: options.units,
    unit: unitName(p),
    rate: rate().toFixed(1),
    left: formatDuration(left(p)),
  });
  let bar: ReturnType<MultiBar["create"]> | undefined;
  const print = (text: string) => bars.log(`${text}\n`);
  return {
    log: {
      info: (obj, msg) => print(format(obj, msg)),
      warn: (obj, msg) => print(`warning: ${format(obj, msg)}`),
      error: (obj, msg) => print(`error: ${format(obj, msg)}`),
    },
    onProgress(p) {
      const entered = enter(p);
      current = p;
      // One bar for the whole run: a new day resets its count and total.
      if (!bar) bar = bars.create(Math.max(p.listed, 1), p.done, payload(p));
      else if (entered) bar.update(0, payload(p));
      bar.setTotal(Math.max(p.listed, 1));
      bar.update(p.listed === 0 ? 1 : p.done, payload(p));
    },
    stop() {
      bars.stop();
    },
  };
}
