#!/usr/bin/env bash
# The project whole on its own: copies the tracked files (as they are in the work tree) into
# a temporary folder with nothing beside it (no ../shared), then runs the sample-data load and
# the fixture-dependent tests there, and checks that no file reads a path into ../shared.
# Usage: npm run test:standalone (CI runs it after npm test).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# No source, test or script reads outside the project (the refresh script names the origin it copies from).
if git grep -nE "\.\./shared|/shared/fixtures|shared/(spec|docs)/" -- app server scripts tests vite.config.ts vitest.config.ts package.json \
  ':!scripts/fixtures-refresh.ts' ':!scripts/standalone-check.sh'; then
  echo "standalone: the lines above reach outside the project" >&2
  exit 1
fi

work=$(mktemp -d /tmp/standalone-XXXXXX)
trap 'rm -rf "$work"' EXIT
proj="$work/proj"
mkdir -p "$proj"
git ls-files -z --cached --others --exclude-standard | (cd "$root" && tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$proj"
ln -s "$root/node_modules" "$proj/node_modules"
if [ -d "$root/build" ]; then cp -r "$root/build" "$proj/build"; fi
[ ! -e "$work/shared" ] || { echo "standalone: $work/shared exists" >&2; exit 1; }
echo "standalone: project copied to $proj (no $work/shared)"

cd "$proj"
export DATA_DIR="$work/data"
unset FIXTURES_DIR FIXTURES_ORIGIN
echo "standalone: load the sample data"
npm run --silent platform -- ingest --sample > "$work/sample.out"
tail -n 8 "$work/sample.out"
grep -q "failed 0" "$work/sample.out"
echo "standalone: the replay server serves the bundled recordings"
node scripts/sources-replay.ts > "$work/replay.out" 2>&1 &
replay_pid=$!
for _ in $(seq 1 100); do grep -q "^BOE_API_URL=" "$work/replay.out" 2>/dev/null && break; sleep 0.2; done
base=$(sed -n 's/^Replay server at //p' "$work/replay.out")
status=$(node -e 'fetch(process.argv[1], { headers: { accept: "application/json" } }).then((r) => console.log(r.status))' \
  "$base/datosabiertos/api/boe/sumario/20260407")
kill "$replay_pid"
wait "$replay_pid" 2>/dev/null || true
[ "$status" = 200 ] || { echo "standalone: replay answered $status" >&2; exit 1; }
echo "standalone: fixture-dependent tests"
npm run --silent test:unit -- app/.server/sources/parsers.test.ts app/.server/classify/classify.test.ts
# The load above created every recorded document (what ingest-sample.test.ts checks in the suite, which
# has the same bundled fixtures; run here too it cost the suite a minute of a shared CPU).
node -e '
const fs = require("node:fs");
const expected = JSON.parse(fs.readFileSync("fixtures/sources/expected.json", "utf8"));
const total = Object.values(expected.boe).reduce((n, ids) => n + ids.length, 0) + expected.eurlex.length;
const created = [...fs.readFileSync(process.argv[1], "utf8").matchAll(/created (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
if (created !== total) { console.error(`standalone: the sample load created ${created} documents, the fixtures list ${total}`); process.exit(1); }
console.log(`standalone: the sample load created all ${total} recorded documents`);
' "$work/sample.out"
echo "standalone: passed"
