/**
 * The steering response (issue 5): holds, the tangent, the screw axis of the upright and
 * its `*_virtual` metrics, on the public example geometries built as mated assemblies.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AssemblyDoc } from '../../../src/assembly/types';
import { parseGeometry } from '../../../src/suspension/files';
import { cornerMetrics, STEERING_AXIS_METRIC_NAMES, type WheelFrame } from '../../../src/suspension/metrics';
import { SuspensionModel } from '../../../src/suspension/build/model';
import type { SuspensionRoles } from '../../../src/suspension/build/roles';
import {
  axisSegment, currentWheelFrames, holdCatalogue, physicalSteeringMetrics, responseLine, steeringAxisRecords,
  steeringResponse, steeringTangent, uprightPointRate, uprightPoints, uprightScrew, uprightTwist, virtualSteeringMetrics,
  type SteeringAxis,
} from '../../../src/suspension/metrics/steering';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { distanceToAxis } from '../../../kernel/screw';
import { DualVec3 } from '../../../kernel/dual';

const examples = new URL('../../../examples/suspension/', import.meta.url);
const assembly = (file: string): AssemblyDoc => suspensionAssembly(parseGeometry(readFileSync(new URL(file, examples), 'utf8')));
const load = (file: string): SuspensionModel => new SuspensionModel(assembly(file));

type V = ArrayLike<number>;
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);
const unit = (a: V): number[] => { const l = norm(a); return [a[0] / l, a[1] / l, a[2] / l]; };

/** Solve a corner (or both corners of an axle) at wheel-centre travel dz (per corner) and rack displacement. */
function solveAt(sm: SuspensionModel, dz: number | number[], rack: number): void {
  const drivers = sm.corners.map((c, i) => {
    c.wheelCenterZ.target = c.design.wheelCenterZ + (Array.isArray(dz) ? dz[i] : dz);
    return c.wheelCenterZ;
  });
  if (sm.rackHold) {
    sm.rackHold.target = sm.design[sm.model.system.variables[sm.steering].offset] + rack;
    drivers.push(sm.rackHold as never);
  }
  const report = sm.solveWith(drivers);
  if (!report.converged) throw new Error(`no solution at dz ${dz}, rack ${rack}`);
}

/** A combined bump and steer sweep: wheel travel −50 → 50 mm with the rack −30 → 30 mm, then back with the rack reversed. */
const COMBINED: [number, number][] = [
  ...Array.from({ length: 11 }, (_, k): [number, number] => [-50 + 10 * k, -30 + 6 * k]),
  ...Array.from({ length: 11 }, (_, k): [number, number] => [50 - 10 * k, -30 + 6 * k]),
];

const world = (sm: SuspensionModel, role: string | { between: [string, string]; fraction: number }) => sm.pointValue(sm.resolveRole(role));
const kingpin = (sm: SuspensionModel, i = 0): [Float64Array, Float64Array] => {
  const sa = sm.corners[i].roles.steering_axis!;
  return [world(sm, sa[0]), world(sm, sa[1])];
};

function expectValid(a: SteeringAxis): asserts a is SteeringAxis & { point: [number, number, number]; direction: [number, number, number]; pitch: number; angular_rate: number } {
  expect(a.status, a.diagnostic).toBe('valid');
}

/** The kingpin checks of suspension.md at the current state, for one hold. */
function expectKingpin(sm: SuspensionModel, hold: string, physical: Record<string, number | null>, i = 0): void {
  const r = steeringResponse(sm, hold);
  const a = r.axes[i];
  expectValid(a);
  const [lbj, ubj] = kingpin(sm, i);
  expect(Math.abs(dot(a.direction, unit(sub(ubj, lbj))))).toBeCloseTo(1, 10);
  expect(Math.abs(1 - Math.abs(dot(a.direction, unit(sub(ubj, lbj)))))).toBeLessThanOrEqual(1e-10);
  expect(a.direction[2]).toBeGreaterThan(0);
  expect(distanceToAxis(lbj, a.point, a.direction)).toBeLessThanOrEqual(1e-8);
  expect(distanceToAxis(ubj, a.point, a.direction)).toBeLessThanOrEqual(1e-8);
  expect(Math.abs(a.pitch)).toBeLessThanOrEqual(1e-8);
  const virtual = virtualSteeringMetrics(sm, r, i);
  for (const name of STEERING_AXIS_METRIC_NAMES) {
    const p = physical[name], v = virtual[`${name}_virtual`];
    expect(p, name).not.toBeNull();
    expect(Math.abs((v as number) - (p as number)), name).toBeLessThanOrEqual(1e-8);
  }
  // ball-joint rates per mm of rack are zero
  const t = steeringTangent(sm, hold);
  for (const p of [lbj, ubj]) expect(norm(uprightPointRate(sm, i, t.tangent!, t.rates!, p))).toBeLessThanOrEqual(1e-9);
  // fitted axis = the upright's own twist axis
  expect(a.rigidity).toBeDefined();
  const g = a.rigidity!;
  expect(g.direction_error).toBeLessThanOrEqual(1e-9);
  expect(g.point_distance).toBeLessThanOrEqual(1e-9);
  expect(g.pitch_error).toBeLessThanOrEqual(1e-9);
  expect(g.angular_rate_error).toBeLessThanOrEqual(1e-9);
}

describe('double wishbone: a wishbone hold recovers the kingpin', () => {
  it('at every state of a combined bump and steer sweep, lower and upper wishbone holds', () => {
    const sm = load('double_wishbone.yaml');
    const rackTravel = new Set<number>();
    for (const [dz, rack] of COMBINED) {
      solveAt(sm, dz, rack);
      const physical = sm.evaluate().metrics as Record<string, number | null>;
      expectKingpin(sm, 'lower_wishbone_angle', physical);
      expectKingpin(sm, 'upper_wishbone_angle', physical);
      expectKingpin(sm, 'layout_default', physical);
      rackTravel.add(Math.round(sm.rackDisplacement()));
    }
    expect(rackTravel.size).toBe(11); // the sweep really steered
  });

  it('both ends of a mirrored axle, in roll and steer', () => {
    const sm = load('double_wishbone_axle.yaml');
    for (const [dz, rack] of [[[0, 0], 0], [[30, -30], 20], [[-40, 25], -25]] as [number[], number][]) {
      solveAt(sm, dz, rack);
      const m = sm.evaluate().metrics as { left: Record<string, number | null>; right: Record<string, number | null> };
      expectKingpin(sm, 'lower_wishbone_angle', m.left, 0);
      expectKingpin(sm, 'lower_wishbone_angle', m.right, 1);
      expectKingpin(sm, 'upper_wishbone_angle', m.right, 1);
      const r = steeringResponse(sm);
      expect(r.axes.map((a) => a.side)).toEqual(['left', 'right']);
    }
  });

  it('the wheel-centre-height hold does not recover the kingpin: both ball joints share one vertical rate, pitch non-zero', () => {
    const sm = load('double_wishbone.yaml');
    const t = steeringTangent(sm, 'wheel_center_height');
    expect(t.status).toBe('unique');
    const [lbj, ubj] = kingpin(sm);
    const rl = uprightPointRate(sm, 0, t.tangent!, t.rates!, lbj), ru = uprightPointRate(sm, 0, t.tangent!, t.rates!, ubj);
    expect(norm(sub(rl, ru))).toBeLessThanOrEqual(1e-10);
    expect(Math.abs(rl[0]) + Math.abs(rl[1])).toBeLessThanOrEqual(1e-10);
    expect(Math.abs(rl[2])).toBeGreaterThan(0.05);
    // the wheel centre itself does not rise
    const wc = currentWheelFrames(sm)[0].wheelCenter.v;
    expect(Math.abs(uprightPointRate(sm, 0, t.tangent!, t.rates!, wc)[2])).toBeLessThanOrEqual(1e-10);
    const a = steeringResponse(sm, 'wheel_center_height').axes[0];
    expectValid(a);
    expect(Math.abs(a.pitch)).toBeGreaterThan(1);
    expect(distanceToAxis(lbj, a.point, a.direction)).toBeGreaterThan(1);
    // A pure translation v added to a turn about the kingpin: same direction, pitch ŝ·v/|ω|,
    // axis moved sideways by |ŝ × v|/|ω| (the seed's jacking).
    const s = unit(sub(ubj, lbj));
    expect(1 - Math.abs(dot(a.direction, s))).toBeLessThanOrEqual(1e-10);
    expect(a.pitch).toBeCloseTo(dot(s, rl) / a.angular_rate * Math.sign(dot(a.direction, s)), 8);
    const cross = [s[1] * rl[2] - s[2] * rl[1], s[2] * rl[0] - s[0] * rl[2], s[0] * rl[1] - s[1] * rl[0]];
    expect(distanceToAxis(lbj, a.point, a.direction)).toBeCloseTo(norm(cross) / a.angular_rate, 8);
  });

  it('the fitted points are the upright\'s own (two ball joints, track rod, axle points)', () => {
    const sm = load('double_wishbone.yaml');
    expect(uprightPoints(sm.corners[0]).names.sort()).toEqual(['axle_inboard', 'axle_outboard', 'lower_wishbone_outboard', 'trackrod_outboard', 'upper_wishbone_outboard']);
    const ml = load('multi_link.yaml');
    // four link ball joints, the track rod, the axle points: seven (the damper pickup is on a rod, not fitted)
    expect(uprightPoints(ml.corners[0]).names).toHaveLength(7);
  });
});

describe('MacPherson: the axis is the ball-joint → strut-top line', () => {
  // the second has its strut clamp off that line (the strut slides through the top mount)
  it.each(['macpherson.yaml', 'macpherson_offset_clamp.yaml'])('under either hold at every state of a combined sweep: %s', (file) => {
    const sm = load(file);
    const roles = sm.corners[0].roles;
    expect(holdCatalogue(sm, 0)).toMatchObject({ default: 'strut_length', ids: ['strut_length', 'lower_arm_angle', 'contact_patch', 'wheel_center_height'] });
    for (const [dz, rack] of COMBINED) {
      solveAt(sm, dz, rack);
      const physical = sm.evaluate().metrics as Record<string, number | null>;
      const lbj = world(sm, roles.points.lower_wishbone_outboard), top = world(sm, roles.points.strut_top);
      for (const hold of ['strut_length', 'lower_arm_angle']) {
        const r = steeringResponse(sm, hold);
        const a = r.axes[0];
        expectValid(a);
        expect(a.hold).toBe(hold);
        expect(1 - Math.abs(dot(a.direction, unit(sub(top, lbj))))).toBeLessThanOrEqual(1e-10);
        expect(distanceToAxis(lbj, a.point, a.direction)).toBeLessThanOrEqual(1e-8);
        expect(distanceToAxis(top, a.point, a.direction)).toBeLessThanOrEqual(1e-8);
        expect(Math.abs(a.pitch)).toBeLessThanOrEqual(1e-8);
        const virtual = virtualSteeringMetrics(sm, r, 0);
        for (const name of STEERING_AXIS_METRIC_NAMES) expect(Math.abs(virtual[`${name}_virtual`]! - physical[name]!), name).toBeLessThanOrEqual(1e-8);
      }
    }
  });
});

describe('double wishbone with the pushrod on the upright', () => {
  it('the damper-length hold moves the axis off the kingpin, with its warning', () => {
    const sm = load('double_wishbone_pushrod.yaml');
    expect(holdCatalogue(sm, 0).ids).toContain('damper_length');
    let worst = 0, coupling = 0;
    for (let rack = -40; rack <= 40; rack += 10) {
      solveAt(sm, 0, rack);
      const physical = sm.evaluate().metrics as Record<string, number | null>;
      expectKingpin(sm, 'lower_wishbone_angle', physical);
      const r = steeringResponse(sm, 'damper_length');
      const a = r.axes[0];
      expectValid(a);
      expect(a.warning).toMatch(/pushrod is on the upright/);
      const v = virtualSteeringMetrics(sm, r, 0);
      const dTrail = Math.abs(v.mechanical_trail_virtual! - physical.mechanical_trail!);
      const dOffset = Math.abs(v.steering_axis_offset_ground_virtual! - physical.steering_axis_offset_ground!);
      worst = Math.max(worst, dTrail, dOffset);
      // the damper is still to first order under its hold, and not under the wishbone hold
      const damperRate = (hold: string) => {
        const t = steeringTangent(sm, hold);
        const [b, e] = sm.corners[0].roles.damper!.map((role) => sm.pointDual(sm.resolveRole(role), t.tangent!, [t.rates], 1));
        const u = unit(sub(e.v, b.v));
        return dot(u, [e.d[0] - b.d[0], e.d[1] - b.d[1], e.d[2] - b.d[2]]);
      };
      expect(Math.abs(damperRate('damper_length'))).toBeLessThanOrEqual(1e-10);
      coupling = Math.max(coupling, Math.abs(damperRate('lower_wishbone_angle')));
    }
    expect(coupling).toBeGreaterThan(1e-3); // steering about the kingpin drives the pushrod
    expect(worst).toBeGreaterThan(1);
    // the wishbone holds carry no warning
    expect(steeringResponse(sm, 'lower_wishbone_angle').axes[0].warning).toBeUndefined();
  });

  it('a wishbone hold plus the damper hold conflict: inconsistent', () => {
    const sm = load('double_wishbone_pushrod.yaml');
    const a = steeringResponse(sm, 'lower_wishbone_angle+damper_length').axes[0];
    expect(a.status).toBe('inconsistent');
    expect(a.point).toBeNull();
    expect(a.diagnostic).toMatch(/conflict/);
  });
});

describe('statuses', () => {
  it('no holds at all: not unique (explicit none, or a hand-assembled linkage without a default)', () => {
    const sm = load('double_wishbone.yaml');
    const a = steeringResponse(sm, 'none').axes[0];
    expect(a.status).toBe('not_unique');
    expect(a.diagnostic).toMatch(/1 of the mechanism's 2 freedoms/);
    const doc = assembly('double_wishbone.yaml');
    (doc.suspension as SuspensionRoles).corners[0].holds = { default: null };
    const bare = new SuspensionModel(doc);
    const b = steeringResponse(bare).axes[0];
    expect(b.status).toBe('not_unique');
    expect(b.hold).toBe('none');
  });

  it('both wishbone holds together: redundant but consistent, accepted (the kingpin)', () => {
    const sm = load('double_wishbone.yaml');
    solveAt(sm, 20, 15);
    expectKingpin(sm, 'lower_wishbone_angle+upper_wishbone_angle', sm.evaluate().metrics as Record<string, number | null>);
  });

  it('no steering actuator, unknown hold', () => {
    const ta = load('trailing_arm.yaml');
    expect(steeringResponse(ta).axes[0].status).toBe('no_steering_actuator');
    expect(holdCatalogue(ta, 0).ids).not.toContain('contact_patch');
    const dw = load('double_wishbone.yaml');
    const a = steeringResponse(dw, 'damper_length').axes[0];
    expect(a.status).toBe('unknown_hold');
    expect(a.diagnostic).toMatch(/no hold "damper_length"/);
  });

  it('the output shape of suspension.md', () => {
    const sm = load('double_wishbone.yaml');
    const r = JSON.parse(JSON.stringify(steeringResponse(sm)));
    expect(r.hold).toBe('layout_default');
    expect(r.axes).toHaveLength(1);
    expect(r.axes[0]).toMatchObject({ side: 'left', status: 'valid', hold: 'lower_wishbone_angle' });
    for (const k of ['point', 'direction']) expect(r.axes[0][k]).toHaveLength(3);
    for (const k of ['pitch', 'angular_rate']) expect(typeof r.axes[0][k]).toBe('number');
    // an unavailable axis keeps the shape, with nulls
    const n = JSON.parse(JSON.stringify(steeringResponse(sm, 'none')));
    expect(n.axes[0]).toMatchObject({ side: 'left', status: 'not_unique', point: null, direction: null, pitch: null, angular_rate: null });
  });
});

describe('contact_patch hold', () => {
  const contactNormalRate = (sm: SuspensionModel, hold: string, i: number, frame: WheelFrame) => {
    const t = steeringTangent(sm, hold);
    expect(t.status).toBe('unique');
    return dot(frame.normal.v, uprightPointRate(sm, i, t.tangent!, t.rates!, frame.contact.v));
  };

  it('keeps the contact point on the road plane, every steered topology, through a sweep', () => {
    for (const file of ['double_wishbone.yaml', 'double_wishbone_pushrod.yaml', 'macpherson.yaml', 'multi_link.yaml']) {
      const sm = load(file);
      expect(holdCatalogue(sm, 0).ids).toContain('contact_patch');
      for (const [dz, rack] of [[0, 0], [40, -25], [-45, 30]]) {
        solveAt(sm, dz, rack);
        const frame = currentWheelFrames(sm)[0];
        expect(Math.abs(contactNormalRate(sm, 'contact_patch', 0, frame)), `${file} ${dz} ${rack}`).toBeLessThanOrEqual(1e-10);
        // ... which the layout-default hold does not do (a check that can fail)
        expect(Math.abs(contactNormalRate(sm, 'layout_default', 0, frame)), file).toBeGreaterThan(1e-3);
        expect(steeringResponse(sm, 'contact_patch').axes[0].status).toBe('valid');
      }
    }
  });

  it('on an axle in roll the road plane tilts and both contact points stay on it', () => {
    const sm = load('double_wishbone_axle.yaml');
    solveAt(sm, [35, -35], 15);
    const frames = currentWheelFrames(sm);
    expect(Math.abs(frames[0].normal.v[1])).toBeGreaterThan(1e-2);
    for (const i of [0, 1]) expect(Math.abs(contactNormalRate(sm, 'contact_patch', i, frames[i]))).toBeLessThanOrEqual(1e-10);
  });

  it('differs from the kingpin by the jacking: the wishbone-hold turn plus wheel travel that cancels the contact point\'s rise', () => {
    const sm = load('double_wishbone.yaml');
    for (const [dz, rack] of [[0, 0], [30, 20], [-40, -25]]) {
      solveAt(sm, dz, rack);
      const frame = currentWheelFrames(sm)[0];
      const lw = steeringTangent(sm, 'lower_wishbone_angle'), cp = steeringTangent(sm, 'contact_patch');
      const bump = sm.derivativeTangent(); // column 0: hub z at unit rate, rack still
      const tw = (t: NonNullable<typeof lw.tangent>, q: Float64Array) => uprightTwist(sm, 0, t, q);
      const A = tw(lw.tangent!, lw.rates!), B = tw(bump, bump.rates[0]!), C = tw(cp.tangent!, cp.rates!);
      const c = frame.contact.v, n = frame.normal.v;
      const rise = (T: typeof A) => dot(n, [T.vAtOrigin[0] + T.omega[1] * c[2] - T.omega[2] * c[1], T.vAtOrigin[1] + T.omega[2] * c[0] - T.omega[0] * c[2], T.vAtOrigin[2] + T.omega[0] * c[1] - T.omega[1] * c[0]]);
      const lambda = -rise(A) / rise(B);
      expect(Math.abs(lambda)).toBeGreaterThan(0.01); // the kingpin turn does lift the contact point
      for (let k = 0; k < 3; k++) {
        expect(C.omega[k]).toBeCloseTo(A.omega[k] + lambda * B.omega[k], 12);
        expect(C.vAtOrigin[k]).toBeCloseTo(A.vAtOrigin[k] + lambda * B.vAtOrigin[k], 8);
      }
      const a = steeringResponse(sm, 'contact_patch').axes[0];
      expectValid(a);
      const [lbj] = kingpin(sm);
      expect(distanceToAxis(lbj, a.point, a.direction)).toBeGreaterThan(1);
      expect(Math.abs(a.pitch)).toBeGreaterThan(1);
      const v = virtualSteeringMetrics(sm, steeringResponse(sm, 'contact_patch'), 0), p = physicalSteeringMetrics(sm, 0)!;
      expect(Math.abs(v.mechanical_trail_virtual! - p.mechanical_trail!)).toBeGreaterThan(1);
    }
  });
});

describe('multi-link', () => {
  it('only *_virtual steering metrics; a valid axis with a small non-zero pitch at design', () => {
    const sm = load('multi_link.yaml');
    expect(physicalSteeringMetrics(sm, 0)).toBeNull();
    const m = sm.evaluate().metrics as Record<string, number | null>;
    for (const name of STEERING_AXIS_METRIC_NAMES) expect(m[name]).toBeNull();
    const r = steeringResponse(sm);
    const a = r.axes[0];
    expectValid(a);
    expect(a.hold).toBe('damper_length');
    expect(Math.abs(a.pitch)).toBeGreaterThan(0.1);
    expect(Math.abs(a.pitch)).toBeLessThan(5);
    expect(a.pitch).toBeCloseTo(-1.2394, 3); // the seed reports −1.2 mm/rad on the same geometry
    expect(a.angular_rate * 180 / Math.PI).toBeCloseTo(0.650, 3); // and 0.650 °/mm of rack
    expect(a.rigidity!.point_distance).toBeLessThanOrEqual(1e-9);
    expect(a.rigidity!.direction_error).toBeLessThanOrEqual(1e-9);
    const v = virtualSteeringMetrics(sm, r, 0);
    for (const name of STEERING_AXIS_METRIC_NAMES) expect(Number.isFinite(v[`${name}_virtual`])).toBe(true);
    // through cornerMetrics (how evaluate() will carry it): physical null, virtual filled
    const frame = currentWheelFrames(sm)[0];
    const c = sm.corners[0];
    const cm = cornerMetrics({
      side: 'left', points: { axle_inboard: vcOf(world(sm, c.roles.axle[0])), axle_outboard: vcOf(world(sm, c.roles.axle[1])) },
      steeringAxis: null, wheel: { offset: 0, tireRadius: c.tireRadius, sectionWidth: 205 }, road: null,
      design: { wheelCenterZ: c.design.wheelCenterZ }, vehicle: {}, axlePosition: 'front', instantAxis: null,
      virtualAxis: responseLine(a),
    }, 0);
    expect(cm.metrics.caster).toBeNull();
    expect(cm.metrics.caster_virtual!.v).toBeCloseTo(v.caster_virtual!, 12);
    expect(cm.metrics.mechanical_trail_virtual!.v).toBeCloseTo(v.mechanical_trail_virtual!, 10);
    expect(frame.contact.v[2]).toBeCloseTo(cm.points.wheel_contact_centre.v[2], 10);
  });

  it('the fitted axis agrees with the twist-derived axis through bump and steer', () => {
    const sm = load('multi_link.yaml');
    for (const [dz, rack] of COMBINED.slice(0, 11)) {
      solveAt(sm, dz, rack);
      const t = steeringTangent(sm);
      const { fit, twist } = uprightScrew(sm, 0, t.tangent!, t.rates!);
      expect(fit.status).toBe('valid');
      expect(twist.status).toBe('valid');
      expect(1 - Math.abs(dot(fit.direction, twist.direction))).toBeLessThanOrEqual(1e-9);
      expect(distanceToAxis(fit.point, twist.point, twist.direction)).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(fit.pitch - twist.pitch)).toBeLessThanOrEqual(1e-9);
      expect(fit.maxResidual).toBeLessThanOrEqual(1e-12);
    }
  });

  it('an axle: one axis per upright, mirrored', () => {
    const sm = load('multi_link_axle.yaml');
    const [l, r] = steeringResponse(sm).axes;
    expectValid(l); expectValid(r);
    expect(r.point[1]).toBeCloseTo(-l.point[1], 9);
    expect(r.direction[1]).toBeCloseTo(-l.direction[1], 12);
    expect(r.pitch).toBeCloseTo(-l.pitch, 9); // a mirror flips the screw's hand
  });
});

describe('axes of a sweep for a viewer', () => {
  it('records with step and drivers, and drawable segments', () => {
    const sm = load('multi_link.yaml');
    const records = [];
    for (let k = 0; k < 5; k++) {
      solveAt(sm, -40 + 20 * k, 0);
      records.push(...steeringAxisRecords(steeringResponse(sm), k, { wheel_center_z: sm.corners[0].wheelCenterZ.target, rack: 0 }));
    }
    expect(records.map((r) => r.step)).toEqual([0, 1, 2, 3, 4]);
    expect(records[4].drivers.wheel_center_z - records[0].drivers.wheel_center_z).toBeCloseTo(80, 9);
    for (const r of records) {
      expect(r.status).toBe('valid');
      const seg = axisSegment(r, 0, 600)!;
      expect(seg[0][2]).toBe(0);
      expect(seg[1][2]).toBe(600);
      expect(distanceToAxis(seg[0], r.point!, r.direction!)).toBeLessThanOrEqual(1e-9);
      expect(distanceToAxis(seg[1], r.point!, r.direction!)).toBeLessThanOrEqual(1e-9);
    }
    // the axis moves with the wheel through bump
    expect(Math.abs(records[4].point![2] - records[0].point![2])).toBeGreaterThan(10);
    expect(axisSegment({ point: null, direction: null }, 0, 1)).toBeNull();
  });
});

function vcOf(a: ArrayLike<number>): DualVec3 {
  const v = new DualVec3(0);
  v.v[0] = a[0]; v.v[1] = a[1]; v.v[2] = a[2];
  return v;
}
