/**
 * The adjoint's evaluation asks for duals only (EvaluateExtras.dualsOnly): no positions and
 * no metric values are made, and the corners' and axle's duals are those of a full
 * evaluation, bit for bit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { validateAssembly } from '../../../src/assembly';
import { SuspensionModel, type StateEvaluation } from '../../../src/suspension/build/model';

const model = (name: string) => new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8')))));

/** Every dual of an evaluation's corners and axle as plain numbers: value and derivatives. */
function duals(ev: StateEvaluation): Record<string, number[] | null> {
  const out: Record<string, number[] | null> = {};
  const put = (key: string, x: { v: number | ArrayLike<number>; d: ArrayLike<number> } | null | undefined) => {
    out[key] = x ? [...(typeof x.v === 'number' ? [x.v] : Array.from(x.v)), ...Array.from(x.d)] : null;
  };
  ev.corners.forEach((c, i) => {
    for (const [k, m] of Object.entries(c.metrics)) put(`${i}.${k}`, m);
    for (const [k, p] of Object.entries(c.points)) put(`${i}.point.${k}`, p);
  });
  for (const [k, m] of Object.entries(ev.axle ?? {})) put(`axle.${k}`, m);
  return out;
}

describe('evaluate({ dualsOnly })', () => {
  it.each(['double_wishbone', 'double_wishbone_axle_steering'])('%s: the same duals, no positions or values', (name) => {
    const sm = model(name);
    const rates = sm.derivativeTangent();
    const full = sm.evaluate({ rates });
    const only = sm.evaluate({ rates, dualsOnly: true });
    expect(Object.keys(full.positions).length).toBeGreaterThan(10);
    expect(only.positions).toEqual({});
    // no value at all (an axle's groups stay, empty)
    expect(JSON.stringify(only.metrics)).toMatch(/^(\{\}|\{"axle":\{\},"left":\{\},"right":\{\}\})$/);
    const a = duals(full), b = duals(only);
    expect(Object.keys(b).length).toBeGreaterThan(20);
    expect(b).toEqual(a);
  });
});
