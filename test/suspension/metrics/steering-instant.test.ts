/**
 * Instant axes from the screw of the wheel-travel response (issue 5, "Past the tools that
 * exist today"), and the link-pair construction of the multi-link.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Dual, DualVec3 } from '../../../kernel/dual';
import { distanceToAxis } from '../../../kernel/screw';
import { parseGeometry } from '../../../src/suspension/files';
import { cornerMetrics, crossCoordinatePlane, type Line3 } from '../../../src/suspension/metrics';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { currentWheelFrames, steeringResponse, uprightPointRate } from '../../../src/suspension/metrics/steering';
import {
  conjugateLine, instantAxisFromScrew, instantScrew, lineSteeringMetrics, linkPairAxis, velocityPoles,
} from '../../../src/suspension/metrics/instant-axis';
import { suspensionAssembly } from '../../../src/suspension/build/template';

const examples = new URL('../../../examples/suspension/', import.meta.url);
const load = (file: string): SuspensionModel => new SuspensionModel(suspensionAssembly(parseGeometry(readFileSync(new URL(file, examples), 'utf8'))));

type V = ArrayLike<number>;
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

function solveAt(sm: SuspensionModel, dz: number, rack: number): void {
  const c = sm.corners[0];
  c.wheelCenterZ.target = c.design.wheelCenterZ + dz;
  const drivers = [c.wheelCenterZ as never];
  if (sm.rackHold) {
    sm.rackHold.target = sm.design[sm.model.system.variables[sm.steering].offset] + rack;
    drivers.push(sm.rackHold as never);
  }
  if (!sm.solveWith(drivers).converged) throw new Error(`no solution at ${dz}, ${rack}`);
}

const wheelCentre = (sm: SuspensionModel) => currentWheelFrames(sm)[0].wheelCenter.v;
const crossings = (line: Line3 | null, wc: V) => ({
  svic: line ? crossCoordinatePlane(line, 1, new Dual(0, wc[1])) : null,
  fvic: line ? crossCoordinatePlane(line, 0, new Dual(0, wc[0])) : null,
});
const STATES: [number, number][] = [[30, 0], [-40, 20], [50, -30], [-20, -35], [45, 35]];

describe('the conjugate construction reproduces the classic instant axes', () => {
  it.each([['double_wishbone.yaml'], ['macpherson.yaml'], ['double_wishbone_pushrod.yaml']])('%s: svic and fvic equal to the plane construction at every state', (file) => {
    const sm = load(file);
    for (const [dz, rack] of STATES) {
      solveAt(sm, dz, rack);
      const m = sm.evaluate().metrics as Record<string, number | null>;
      const { svic, fvic } = crossings(instantAxisFromScrew(sm, 0), wheelCentre(sm));
      expect(svic && fvic).toBeTruthy();
      const close = (a: number, b: number | null) => expect(Math.abs(a - (b as number))).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b as number)) + 1e-7);
      close(svic!.v[0], m.svic_x); close(svic!.v[2], m.svic_z);
      close(fvic!.v[1], m.fvic_y); close(fvic!.v[2], m.fvic_z);
    }
  });

  it('parallel wishbones at design: at infinity, like the classic construction; the raw screw axis is not', () => {
    const sm = load('double_wishbone.yaml');
    const m = sm.evaluate().metrics as Record<string, number | null>;
    expect(m.svic_x).toBeNull();
    expect(instantAxisFromScrew(sm, 0)).toBeNull();
    // the wheel-travel screw: a vertical translation with bump steer about the kingpin, huge pitch
    const s = instantScrew(sm, 0);
    expect(s.status).toBe('valid');
    expect(Math.abs(s.pitch!)).toBeGreaterThan(1000);
    expect(instantAxisFromScrew(sm, 0, 0, undefined, { construction: 'isa' })).not.toBeNull();
  });

  it('with pitch ≠ 0 the screw axis crossing is not a velocity pole; with pitch 0 (trailing arm) all agree', () => {
    const ml = load('multi_link.yaml');
    const s = instantScrew(ml, 0);
    expect(s.status).toBe('valid');
    expect(Math.abs(s.pitch!)).toBeGreaterThan(1);
    const wc = wheelCentre(ml);
    const poles = velocityPoles(s, wc[1], wc[0]);
    // a pole's velocity has no side-view (x, z) component
    const vel = (p: V) => [s.vAtOrigin![0] + s.omega![1] * p[2] - s.omega![2] * p[1], s.vAtOrigin![1] + s.omega![2] * p[0] - s.omega![0] * p[2], s.vAtOrigin![2] + s.omega![0] * p[1] - s.omega![1] * p[0]];
    const vs = vel(poles.side!), vf = vel(poles.front!);
    expect(Math.hypot(vs[0], vs[2])).toBeLessThanOrEqual(1e-12);
    expect(Math.hypot(vf[1], vf[2])).toBeLessThanOrEqual(1e-12);
    const isa = crossings(instantAxisFromScrew(ml, 0, 0, undefined, { construction: 'isa' }), wc);
    const offset = Math.hypot(isa.svic!.v[0] - poles.side![0], isa.svic!.v[2] - poles.side![2]);
    // the offset predicted in the documentation: |h/ω_y|·|(ω_z, −ω_x)|
    const [wx, wy, wz] = s.omega!;
    expect(offset).toBeCloseTo(Math.abs(s.pitch! / wy) * Math.hypot(wx, wz), 6);
    expect(offset).toBeGreaterThan(1);

    const ta = load('trailing_arm.yaml');
    const t = instantScrew(ta, 0);
    expect(Math.abs(t.pitch!)).toBeLessThanOrEqual(1e-9);
    const m = ta.evaluate().metrics as Record<string, number | null>;
    const twc = wheelCentre(ta);
    const { svic, fvic } = crossings(instantAxisFromScrew(ta, 0), twc); // unsteered: the screw axis itself
    expect(svic!.v[0]).toBeCloseTo(m.svic_x!, 8);
    expect(svic!.v[2]).toBeCloseTo(m.svic_z!, 8);
    expect(fvic!.v[1]).toBeCloseTo(m.fvic_y!, 8);
    const tp = velocityPoles(t, twc[1], twc[0]);
    expect(tp.side![0]).toBeCloseTo(m.svic_x!, 8);
    expect(tp.front![1]).toBeCloseTo(m.fvic_y!, 8);
  });
});

describe('multi-link instant centres', () => {
  it('now defined, and every null plane of a steering-axis point contains the line', () => {
    const sm = load('multi_link.yaml');
    for (const [dz, rack] of [[0, 0], ...STATES] as [number, number][]) {
      solveAt(sm, dz, rack);
      const m = sm.evaluate().metrics as Record<string, number | null>;
      const line = instantAxisFromScrew(sm, 0);
      expect(line).not.toBeNull();
      const { svic, fvic } = crossings(line, wheelCentre(sm));
      expect(Number.isFinite(svic!.v[0]) && Number.isFinite(fvic!.v[1])).toBe(true);
      // independent check: wheel-travel velocities of three points of the steering axis,
      // each normal to (any point of the line − that point)
      const a = steeringResponse(sm).axes[0];
      const bump = sm.derivativeTangent();
      const q0 = line!.point.v, q1 = [q0[0] + 500 * line!.direction.v[0], q0[1] + 500 * line!.direction.v[1], q0[2] + 500 * line!.direction.v[2]];
      for (const t of [-200, 37, 310]) {
        const p = [a.point![0] + t * a.direction![0], a.point![1] + t * a.direction![1], a.point![2] + t * a.direction![2]];
        const v = uprightPointRate(sm, 0, bump, bump.rates[0]!, p);
        const vn = Math.hypot(v[0], v[1], v[2]);
        for (const q of [q0, q1]) expect(Math.abs(dot(sub(q, p), v)) / vn).toBeLessThanOrEqual(1e-7);
      }
      // through cornerMetrics: svic, fvic and swing arms come out
      const c = sm.corners[0];
      const f = currentWheelFrames(sm)[0];
      const cm = cornerMetrics({
        side: 'left', points: { axle_inboard: pt(sm.pointValue(c.axle[0])), axle_outboard: pt(sm.pointValue(c.axle[1])) }, steeringAxis: null,
        wheel: { offset: 0, tireRadius: c.tireRadius, sectionWidth: 205 }, road: null, design: { wheelCenterZ: c.design.wheelCenterZ },
        vehicle: { cgPosition: [1080, 0, 520], wheelbase: 2700, frontBrakeBias: 0.6 }, axlePosition: 'front', instantAxis: line,
      }, 0);
      for (const k of ['svic_x', 'svic_z', 'fvic_y', 'fvic_z', 'svsa_length', 'fvsa_length', 'svsa_angle', 'anti_dive'] as const) expect(cm.metrics[k], k).not.toBeNull();
      expect(f.contact.v[2]).toBeCloseTo(cm.points.wheel_contact_centre.v[2], 9);
    }
  });

  it('conjugateLine does not depend on which two points of the steering axis are taken', () => {
    const sm = load('multi_link.yaml');
    solveAt(sm, 25, -15);
    const s = instantScrew(sm, 0);
    const a = steeringResponse(sm).axes[0];
    const at = (t: number) => [a.point![0] + t * a.direction![0], a.point![1] + t * a.direction![1], a.point![2] + t * a.direction![2]];
    const l1 = conjugateLine(s.omega!, s.vAtOrigin!, at(-150), at(150))!;
    const l2 = conjugateLine(s.omega!, s.vAtOrigin!, at(40), at(400))!;
    const d1 = l1.direction.v, d2 = l2.direction.v;
    expect(1 - Math.abs(dot(d1, d2)) / Math.hypot(...d1) / Math.hypot(...d2)).toBeLessThanOrEqual(1e-10);
    expect(distanceToAxis(l2.point.v, l1.point.v, d1)).toBeLessThanOrEqual(1e-6);
    // and a different steering line gives a different instant axis (the choice matters)
    const l3 = conjugateLine(s.omega!, s.vAtOrigin!, at(-150), [at(150)[0] + 30, at(150)[1], at(150)[2]])!;
    expect(distanceToAxis(l3.point.v, l1.point.v, d1)).toBeGreaterThan(1);
  });
});

describe('link-pair construction', () => {
  it('virtual ball joints near the meeting points of the link pairs, an axis near the screw axis at design', () => {
    const sm = load('multi_link.yaml');
    const lp = linkPairAxis(sm, 0)!;
    expect(lp.lowerGap).toBeLessThan(1);
    expect(lp.upperGap).toBeLessThan(1);
    expect(lp.upper[2]).toBeGreaterThan(lp.lower[2]);
    const a = steeringResponse(sm).axes[0];
    expect(Math.abs(dot(lp.direction, a.direction!))).toBeGreaterThan(Math.cos(1 * Math.PI / 180));
    const pair = lineSteeringMetrics(sm, 0, lp.lower, lp.direction);
    const screw = lineSteeringMetrics(sm, 0, a.point!, a.direction!);
    expect(Math.abs(pair.kpi! - screw.kpi!)).toBeLessThan(1);
    expect(Math.abs(pair.caster! - screw.caster!)).toBeLessThan(1);
    // the gaps open up away from design
    solveAt(sm, 0, 40);
    const far = linkPairAxis(sm, 0)!;
    expect(Math.max(far.lowerGap, far.upperGap)).toBeGreaterThan(Math.max(lp.lowerGap, lp.upperGap));
    expect(linkPairAxis(load('double_wishbone.yaml'), 0)).toBeNull();
  });
});


function pt(a: V): DualVec3 {
  const v = new DualVec3(0);
  v.v[0] = a[0]; v.v[1] = a[1]; v.v[2] = a[2];
  return v;
}
