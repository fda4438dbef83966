/**
 * The whole car's iteration matrix written straight into the factors' places (kernel/integrator/
 * iteration.ts factorFused, pattern.ts directTo, lu-refactor.ts placeList and refactorPlaced):
 * each place holds, after the LU's scan scaled it, exactly what the gather of the compact list
 * put there before (Session 17's refactorCompact: x = values[e] × D_i D_j, written where x ≠ 0,
 * the rest of the factors zero; an entry outside the pattern only checked), to the bit and the
 * sign of zero. A place a writer missed would hold zero where the gather put a value, a kept
 * force place not put in place likewise; a place written twice or into another's, the wrong value.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readVehicleRun } from '../../../src/suspension/vehicle/road';
import { prepareVehicleSimulation } from '../../../src/suspension/vehicle/simulate';
import { prepareSimulation } from '../../../src/mechanics/simulate';
import type { ConstraintRows } from '../../../kernel/integrator/rows';
import type { IterationSystem } from '../../../kernel/integrator/iteration';
import type { IterationPattern } from '../../../kernel/integrator/pattern';
import { readVehicle, SEDAN } from './vehicle-sources';

interface Arena { scan(count: number, sinks: number, kept: number): number }
interface Pattern { arena: Arena; val: Float64Array; rowStart: Int32Array; n: number; sinkCount: number; keptCount: number }
interface Lu { pattern: Pattern; places: Int32Array; entryScale: Float64Array }

describe('the car\'s matrix written into the factors\' places', () => {
  it('puts into each place exactly what the gather of the compact list put there', () => {
    const spec = readVehicle();
    const road = 'road:\n  left: { iso8608: { class: C, seed: 5, speed_kmh: 60, length_m: 20 } }\n  right: { iso8608: { class: C, seed: 6, speed_kmh: 60, length_m: 20 } }\n';
    const text = `${readFileSync(SEDAN, 'utf8')}${road}`;
    const model = prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec));
    const it = prepareSimulation(model.dyn, { lieGroup: 'R3xSO3' }).integrator;
    for (let k = 1; k <= 60; k++) expect(it.step(0.001, k * 0.001)).toBe(true);
    const inner = it as unknown as { lin: IterationSystem; constraints: ConstraintRows; scheme: { betaP: number; gammaP: number } };
    const lin = inner.lin, c = inner.constraints, { betaP, gammaP } = inner.scheme, N = it.size + it.activeRows().length;
    const p = (lin as unknown as { pattern: IterationPattern }).pattern, lu = lin.luNonzero as unknown as Lu;
    c.evaluate(true, false);

    // the matrix as the list (the writers' plain target), and what the gather made of it
    expect(lin.factor(N, betaP, gammaP, c)).toBe(true);
    lin.matrix(N);
    const values = p.values.slice();
    const placed = lin.luNonzero.placeCompact(p.entries, N, p.keptEntries);
    expect(placed).not.toBeNull();
    const pl = lu.pattern, count = pl.rowStart[pl.n], place = lu.places, scale = lu.entryScale;
    const gathered = new Float64Array(count);
    let largest = 0, outside = 0, kept = 0;
    values.forEach((v, e) => {
      const x = v * scale[e];
      if (place[e] < 0) { outside++; expect(x, `entry ${e}, outside the pattern`).toBe(0); return; }
      if (x === 0) return;
      gathered[place[e]] = x;
      largest = Math.max(largest, Math.abs(x));
    });
    p.keptEntries.forEach((e) => { if (place[e] >= 0 && values[e] !== 0) kept++; });

    // the same matrix written in place (placeCompact cleared the factors), scaled by the scan
    const t = p.directTo(placed!), g = lin as unknown as { gyroBlocks: Float64Array; gyroScale: number; masses: Float64Array[]; bodySlot: Int32Array; K: Float64Array; C: Float64Array; derivatives: number };
    p.writeDynamic(t, g.gyroBlocks, g.gyroScale, g.masses, g.bodySlot, g.K, g.C, 1 / betaP, gammaP, g.derivatives);
    p.addRows(t, c);
    expect(pl.arena.scan(count, pl.sinkCount, pl.keptCount)).toBe(largest);
    for (let i = 0; i < count; i++) expect(Object.is(pl.val[i], gathered[i]), `factor entry ${i}: ${pl.val[i]} against ${gathered[i]}`).toBe(true);

    // not an empty comparison: most places written, entries outside the pattern and kept force places among them
    expect(gathered.filter((x) => x !== 0).length).toBeGreaterThan(0.4 * count);
    expect(outside).toBeGreaterThan(100);
    expect(kept).toBeGreaterThan(100);
  });
});
