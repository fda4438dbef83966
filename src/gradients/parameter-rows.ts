/**
 * Stage 2 of a gradient run: each parameter's rows at a state. ∂R/∂p (dynamic rows), Φ_p and
 * (∂Φ_q/∂p)w (constraint rows) of a hardpoint (parameters/hardpoints.ts), of a rate or a mass
 * (parameters/terms.ts), of an element's number (parameters/coefficients.ts), and of a combined
 * parameter (a weighted sum of those, its rows' own Φ_θ and a road's driven rate).
 */
import { CoordinateMotion } from '../../kernel/motion';
import { DynamicSensitivityError } from './errors';
import { HardpointTerms } from './parameters/hardpoints';
import { parameterTerm } from './parameters/terms';
import type { RunSetup } from './setup';

export type ParameterRows = ReturnType<typeof parameterRows>;

export function parameterRows(s: RunSetup) {
  const { dyn, it, system, parameters, hardpoints, combinedHp, rowBlocks, n, m, P, combined, startMode } = s;
  const hp = hardpoints.length ? new HardpointTerms(dyn, hardpoints.map((h) => h.p), rowBlocks) : null;
  const hpOf = new Int32Array(P).fill(-1);
  hardpoints.forEach((h, k) => { if (h.j >= 0) hpOf[h.j] = k; });
  /** ∂R/∂p_j at the current state into `out` (dynamic rows) and, for a hardpoint, Φ_p into `con` (rows). */
  const massTerms = parameters.map((p) => (p.kind === 'hardpoint' || p.kind === 'combined' ? null : parameterTerm(dyn, it.layout, p)));
  const rowOf = new Map<string, number>();
  for (const rb of rowBlocks) { const o = system.block(rb.index).owner; if (!rowOf.has(o)) rowOf.set(o, rb.row0); }
  const combos = parameters.map((p) => {
    if (p.kind !== 'combined') return null;
    const rows = (p.rows ?? []).map(({ owner, value }) => {
      const r = rowOf.get(owner);
      if (r === undefined) throw new DynamicSensitivityError(`parameter "${p.name}": no constraint rows "${owner}"`);
      return { r, value };
    });
    const plain = p.parts.filter(({ parameter: q }) => q.kind !== 'hardpoint').map(({ parameter: q, weight }) => ({ term: parameterTerm(dyn, it.layout, q), weight }));
    const driven = (p.driven ?? []).map(({ owner, rate }) => {
      const rb = rowBlocks.find((b) => system.block(b.index).owner === owner && system.block(b.index) instanceof CoordinateMotion);
      if (!rb) throw new DynamicSensitivityError(`parameter "${p.name}": no motion "${owner}"`);
      return { r: rb.row0, scale: (system.block(rb.index) as CoordinateMotion).scale, rate };
    });
    return { rows, plain, extra: p.term ? p.term(dyn, it.layout) : null, driven };
  });
  const cOut = new Float64Array(n), cCon = new Float64Array(m), cConW = new Float64Array(m);
  /** Parameter j's rows at the current state: ∂R/∂p into `out` (tangent size), Φ_p into `con` and (∂Φ_q/∂p)w into `conW` (rows), each when given. */
  const rowsOf = (j: number, lambda: Float64Array | null, v: Float64Array, vdot: Float64Array, t: number, out: Float64Array, con: Float64Array | null, conW: Float64Array | null) => {
    const k = hpOf[j], cb = combos[j];
    if (k >= 0) { hp!.evaluate(k, lambda, v, t, out, con, vdot, conW); return; }
    if (!cb) { massTerms[j]!(out, v, vdot, t); return; }
    for (const { k: kc, w } of combinedHp[j]) {
      cOut.fill(0); cCon.fill(0); cConW.fill(0);
      hp!.evaluate(kc, lambda, v, t, cOut, con ? cCon : null, vdot, conW ? cConW : null);
      for (let i = 0; i < n; i++) out[i] += w * cOut[i];
      if (con) for (let r = 0; r < m; r++) con[r] += w * cCon[r];
      if (conW) for (let r = 0; r < m; r++) conW[r] += w * cConW[r];
    }
    for (const { term, weight } of cb.plain) { cOut.fill(0); term(cOut, v, vdot, t); for (let i = 0; i < n; i++) out[i] += weight * cOut[i]; }
    if (cb.extra) cb.extra(out, v, vdot, t);
    if (con) for (const { r, value } of cb.rows) con[r] += value;
    if (con) for (const { r, scale, rate } of cb.driven) con[r] -= scale * rate(t);
  };
  const terms = parameters.map((_, j) => (out: Float64Array, v: Float64Array, vdot: Float64Array, t: number, lambda: Float64Array, con: Float64Array | null) => rowsOf(j, lambda, v, vdot, t, out, con, null));
  /** Whether the parameters reach the constraint rows or the start positions (the curvature terms are needed). */
  const curved = hp !== null || combined || startMode !== 'file';
  const jpA = new Float64Array(n), jpB = new Float64Array(n);
  /** (∂Jᵀ/∂p)e of hardpoint k into `out`: evaluate's dynamic rows with e as the multipliers, less its force terms. */
  const hardpointJTe = (k: number, e: Float64Array, v: Float64Array, t: number, out: Float64Array) => {
    jpA.fill(0); jpB.fill(0);
    hp!.evaluate(k, e, v, t, jpA, null, null, null);
    hp!.evaluate(k, null, v, t, jpB, null, null, null);
    for (let i = 0; i < n; i++) out[i] = jpA[i] - jpB[i];
  };
  /** (∂J/∂p)w of hardpoint k into `out` (rows). */
  const hardpointJw = (k: number, w: Float64Array, v: Float64Array, t: number, out: Float64Array) => {
    out.fill(0);
    hp!.evaluate(k, null, v, t, null, null, w, out);
  };
  const zeroN = new Float64Array(n);
  /**
   * (∂Jᵀ/∂p_j)e and (∂J/∂p_j)w of any parameter (zero unless it moves rows: a hardpoint, or a combined
   * parameter's through its hardpoints): rowsOf with e as the multipliers, less its λ-free terms.
   */
  const paramJTe = (j: number, e: Float64Array, v: Float64Array, t: number, out: Float64Array) => {
    if (hpOf[j] >= 0) { hardpointJTe(hpOf[j], e, v, t, out); return; }
    out.fill(0);
    if (!combos[j]) return;
    jpA.fill(0); jpB.fill(0);
    rowsOf(j, e, v, zeroN, t, jpA, null, null);
    rowsOf(j, null, v, zeroN, t, jpB, null, null);
    for (let i = 0; i < n; i++) out[i] = jpA[i] - jpB[i];
  };
  const paramJw = (j: number, w: Float64Array, v: Float64Array, t: number, out: Float64Array) => {
    if (hpOf[j] >= 0) { hardpointJw(hpOf[j], w, v, t, out); return; }
    out.fill(0);
    if (!combos[j]) return;
    jpA.fill(0);
    rowsOf(j, null, v, w, t, jpA, null, out);
  };
  /** Whether parameter j moves the constraint rows at the start (a hardpoint on them). */
  const movesStart = (j: number) => hpOf[j] >= 0 && hp!.movesRows(hpOf[j]);
  return { hp, hpOf, rowsOf, terms, curved, paramJTe, paramJw, movesStart };
}
