#!/bin/bash
# usage: bash scripts/bench-ab.sh BASE NEW CASE [ROUNDS]
# A/B of one bench case between two checkouts (each with npm ci done), on a shared machine:
# runs the bundled bench (CPU clock) alternately in BASE and NEW, ROUNDS times (default 5),
# each in its own process; prints each reading and the medians. CASE is a substring of the
# case names (every case it matches is reported).
set -u
A_TREE=$1; B_TREE=$2; C=$3; N=${4:-5}
run() { (cd "$1" && BENCH_CLOCK=cpu npm run -s bench -- --only="$C" --json 2>/dev/null | tail -1); }
A=(); B=()
for i in $(seq "$N"); do
  a=$(run "$A_TREE"); b=$(run "$B_TREE")
  echo "round $i base: $a"; echo "round $i new : $b"
  A+=("$a"); B+=("$b")
done
node -e '
const [c, n, ...rest] = process.argv.slice(1); const k = +n;
const parse = (s) => { try { return JSON.parse(s); } catch { return {}; } };
const A = rest.slice(0, k).map(parse), B = rest.slice(k).map(parse);
const keys = Object.keys(A[0] ?? {}).filter((x) => x.includes(c));
const med = (v) => { v = v.filter(Number.isFinite).sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
for (const key of keys) { const a = med(A.map((o) => o[key])), b = med(B.map((o) => o[key])); console.log(key, "median base", a, "new", b, "ratio", (b / a).toFixed(3)); }
' "$C" "$N" "${A[@]}" "${B[@]}"
