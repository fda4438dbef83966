/**
 * Where the vehicle simulation's refactor works, and what a block-bordered order would cost
 * (docs/vehicle-dynamics.md, "Session 10"). Steps the bench case (bench/vehicle-sim-case.ts:
 * the sedan over the class C road, h = 1 ms, R³ × SO(3)) and takes the iteration matrix of
 * its last factorisation, then prints:
 *
 * - the pattern refactor's figures (lu-refactor.ts): the factors' nonzeros, the elimination's
 *   updates, the pivots off the diagonal, and the updates landing in the last T rows (from
 *   rows before T, and from the tail itself);
 * - the symmetrised graph's largest degrees, and the components left when the k unknowns of
 *   largest degree are taken out (how the corners hang together);
 * - structural elimination counts (no pivoting, every entry kept): the minimum-degree order of
 *   lu-ordered.ts, and block-bordered orders: a border found greedily (the unknown with most
 *   neighbours inside the largest block, until every block is at most B unknowns), each
 *   block in its own minimum-degree order, the border last.
 *
 *   npx tsx scripts/vehicle-sim-structure.ts [STEPS] [--repo DIR]     (default 300 steps)
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';

const args = process.argv.slice(2);
const repoAt = args.indexOf('--repo');
const repo = resolve(repoAt >= 0 ? args[repoAt + 1] : '.');
const steps = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--repo') ?? 300);
const SEDAN = join(repo, 'examples/vehicles/sedan.vehicle.yaml');
const ROAD = '\nroad:\n  left: { iso8608: { class: C, seed: 1, speed_kmh: 60, length_m: 100 } }\n  right: { iso8608: { class: C, seed: 2, speed_kmh: 60, length_m: 100 } }\n';

const { readVehicleFile } = await import(join(repo, 'src/suspension/vehicle/file.ts'));
const { readVehicleRun } = await import(join(repo, 'src/suspension/vehicle/road.ts'));
const { prepareVehicleSimulation } = await import(join(repo, 'src/suspension/vehicle/simulate.ts'));
const { prepareSimulation } = await import(join(repo, 'src/mechanics/simulate.ts'));
const { OrderedLU, minimumDegreeOrder } = await import(join(repo, 'kernel/lu-ordered.ts'));

interface Captured { n: number; A: Float64Array; nonzeros: Int32Array }
let last: Captured | null = null;
const factor = OrderedLU.prototype.factor;
OrderedLU.prototype.factor = function (A: Float64Array, n: number, tol: number, nonzeros: Int32Array | null, count: number): boolean {
  if (this.ordered && nonzeros) last = { n, A: A.slice(0, n * n), nonzeros: nonzeros.slice(0, count) };
  return factor.call(this, A, n, tol, nonzeros, count);
};
// the integrator assembles a large matrix on its pattern (integrator/pattern.ts) and factors that list
const factorCompact = OrderedLU.prototype.factorCompact;
OrderedLU.prototype.factorCompact = function (values: Float64Array, entries: Int32Array, dense: Float64Array, n: number, tol: number): boolean {
  if (this.ordered) {
    const A = new Float64Array(n * n);
    entries.forEach((e, k) => { A[e] = values[k]; });
    last = { n, A, nonzeros: entries.slice() };
  }
  return factorCompact.call(this, values, entries, dense, n, tol);
};
const text = readFileSync(SEDAN, 'utf8') + ROAD;
const spec = readVehicleFile(text, SEDAN, (ref: string) => {
  const path = normalize(join(dirname(SEDAN), ref));
  return { path, text: readFileSync(path, 'utf8') };
});
const integrator = prepareSimulation(prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec)).dyn, { lieGroup: 'R3xSO3' }).integrator;
for (let k = 1; k <= steps; k++) if (!integrator.step(0.001, k * 0.001)) throw new Error(`the step at ${k} ms failed`);
OrderedLU.prototype.factor = factor;
OrderedLU.prototype.factorCompact = factorCompact;
if (!last) throw new Error('no ordered factorisation in the run');
const { n, A, nonzeros } = last as Captured;

// the pattern refactor's own figures
const lu = new OrderedLU(n, true, true);
lu.factor(A, n, 1e-15, nonzeros, nonzeros.length);
const p = (lu as unknown as { pattern: { rowStart: Int32Array; diagPos: Int32Array; col: Int32Array; rowOf: Int32Array; colOf: Int32Array; target: Int32Array } }).pattern;
let off = 0;
for (let k = 0; k < n; k++) if (p.rowOf[k] !== p.colOf[k]) off++;
console.log(`matrix ${n} × ${n}, ${nonzeros.length} pattern entries; factors ${lu.nonzeros} nonzeros, ${p.target.length} updates a refactor, ${off} pivots off the diagonal`);
for (const T of [40, 20, 6]) {
  let head = 0, fromHead = 0, fromTail = 0;
  for (let k = 0; k < n; k++) {
    for (let e = p.rowStart[k]; e < p.diagPos[k]; e++) {
      const j = p.col[e], u = p.rowStart[j + 1] - p.diagPos[j] - 1;
      if (k < n - T) head += u; else if (j < n - T) fromHead += u; else fromTail += u;
    }
  }
  console.log(`  last ${T} rows: ${fromHead + fromTail} updates (${fromHead} from earlier rows, ${fromTail} within), the rows before: ${head}`);
}

// the symmetrised graph
const adj: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
for (const e of nonzeros) {
  const i = Math.floor(e / n), j = e - i * n;
  if (A[e] !== 0 && i !== j) { adj[i].add(j); adj[j].add(i); }
}
const byDegree = [...adj.keys()].sort((a, b) => adj[b].size - adj[a].size || a - b);
console.log(`largest degrees (unknown: degree): ${byDegree.slice(0, 12).map((i) => `${i}: ${adj[i].size}`).join(', ')}`);
function components(removed: Set<number>): number[][] {
  const seen = new Uint8Array(n), out: number[][] = [];
  for (const u of removed) seen[u] = 1;
  for (let s = 0; s < n; s++) {
    if (seen[s]) continue;
    const stack = [s], part: number[] = [];
    seen[s] = 1;
    while (stack.length) {
      const u = stack.pop()!;
      part.push(u);
      for (const w of adj[u]) if (!seen[w]) { seen[w] = 1; stack.push(w); }
    }
    out.push(part);
  }
  return out;
}
for (const k of [6, 12, 24]) {
  const sizes = components(new Set(byDegree.slice(0, k))).map((c) => c.length).sort((a, b) => b - a);
  console.log(`  without the ${k} of largest degree: components ${sizes.filter((s) => s > 1).join(', ')} (+${sizes.filter((s) => s === 1).length} single)`);
}

/** Structural symmetric elimination in `order`: the factors' off-diagonal nonzeros (one triangle) and the updates (Σ over pivots of the later neighbours²). */
function structural(order: number[]): { nonzeros: number; updates: number } {
  const pos = new Int32Array(n);
  order.forEach((v, k) => { pos[v] = k; });
  const g = adj.map(() => new Set<number>());
  adj.forEach((s, v) => { for (const w of s) g[pos[v]].add(pos[w]); });
  let nz = 0, updates = 0;
  for (let k = 0; k < n; k++) {
    const later = [...g[k]].filter((x) => x > k);
    nz += later.length;
    updates += later.length * later.length;
    for (const a of later) for (const b of later) if (a !== b) g[a].add(b);
  }
  return { nonzeros: nz, updates };
}
/** The minimum-degree order (lu-ordered.ts) of the listed unknowns' submatrix, as unknowns. */
function orderOf(nodes: number[]): number[] {
  const m = nodes.length, S = new Float64Array(m * m), at = new Map(nodes.map((v, i) => [v, i] as const));
  for (const v of nodes) {
    const i = at.get(v)!;
    S[i * m + i] = A[v * n + v];
    for (const w of adj[v]) if (at.has(w)) S[i * m + at.get(w)!] = 1;
  }
  const perm = new Int32Array(m);
  minimumDegreeOrder(S, m, perm);
  return Array.from(perm, (k) => nodes[k]);
}
const md = structural(orderOf([...Array(n).keys()]));
console.log(`structural, minimum degree: ${md.nonzeros} nonzeros a triangle, ${md.updates} updates`);
for (const B of [120, 80, 45]) {
  const border = new Set<number>();
  let blocks = components(border);
  while (Math.max(...blocks.map((b) => b.length)) > B) {
    const big = blocks.reduce((a, b) => (b.length > a.length ? b : a));
    let best = big[0], most = -1;
    for (const u of big) {
      let d = 0;
      for (const w of adj[u]) if (!border.has(w)) d++;
      if (d > most) { most = d; best = u; }
    }
    border.add(best);
    blocks = components(border);
  }
  const order = blocks.flatMap(orderOf).concat(orderOf([...border]));
  const r = structural(order);
  console.log(`structural, block-bordered (blocks ≤ ${B}): border ${border.size}, blocks ${blocks.map((b) => b.length).sort((a, b) => b - a).join(', ')}; ${r.nonzeros} nonzeros a triangle, ${r.updates} updates`);
}
