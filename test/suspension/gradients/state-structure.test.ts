/**
 * The state factorisation's structure (layout, rows, parameter spans) is built once per
 * structure, not at every state of a sweep, and the gradients it gives are those of a model
 * that never saw another state, bit for bit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { SensitivityModel, gradientsAtFirstState, sensitivitySweep } from '../../../src/suspension/gradients/model';
import { StateFactoring } from '../../../src/suspension/gradients/state-factors';

const FIRST_ORDER = ['camber', 'toe_angle', 'caster', 'kpi', 'scrub_radius', 'svsa_length'];
const geometry = () => parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8'));

describe('state factorisation structure', () => {
  it('one structure for every state of a sweep; each state’s gradients equal a fresh model’s there', () => {
    const model = new SensitivityModel(geometry());
    const seen: { rows: unknown; spans: unknown; layout: unknown; state: Float64Array }[] = [];
    const factor = StateFactoring.prototype.factor;
    StateFactoring.prototype.factor = function (...args: Parameters<typeof factor>) {
      const f = factor.apply(this, args);
      seen.push({ rows: f.rows, spans: f.spans, layout: f.layout, state: model.sm.model.system.snapshot() });
      return f;
    };
    let steps;
    try {
      steps = sensitivitySweep(model, sweepFromShortcut('bump', '-20:20:3'), FIRST_ORDER).steps;
    } finally {
      StateFactoring.prototype.factor = factor;
    }
    expect(seen.length).toBe(3);
    for (const s of seen) for (const key of ['rows', 'spans', 'layout'] as const) expect(s[key]).toBe(seen[0][key]);
    // the last state again, in a model that factors it first (the same drivers, the state copied)
    const other = new SensitivityModel(geometry());
    const here = gradientsAtFirstState(other, sweepFromShortcut('bump', '20:20:1'));
    other.sm.model.system.state.set(seen[2].state);
    const fresh = here();
    const last = steps[2].metrics as Record<string, unknown>;
    for (const m of FIRST_ORDER) { expect(fresh[m]).not.toBeNull(); expect(last[m]).toEqual(fresh[m]); }
  });
});
