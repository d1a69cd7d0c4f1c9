/**
 * Crash points for the fault suite (tests/faults/, decision 0145): with FAULT_AT=<step> (or
 * <step>@<n>, the n-th time the step is reached) in its environment, the process SIGKILLs itself
 * at that point, as a power cut would stop it there. Unset (production) it is one comparison.
 */
const [faultStep, faultNth] = (process.env.FAULT_AT ?? "").split("@");
const faultAfter = Number(faultNth ?? "1") || 1;
let reached = 0;

export function faultPoint(step: string): void {
  if (!faultStep || step !== faultStep) return;
  reached++;
  if (reached >= faultAfter) process.kill(process.pid, "SIGKILL");
}
