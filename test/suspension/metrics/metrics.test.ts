import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dual, DualVec3 } from '../../../kernel/dual';
import { mirrorHardpoints, tireRadius, type Point3, type Side } from '../../../src/suspension/files';
import {
  CORNER_METRIC_NAMES,
  DERIVED_POINT_NAMES,
  AXLE_METRIC_NAMES,
  axleDesignReference,
  axleMetrics,
  axleRoadPlane,
  cornerMetrics,
  crossCoordinatePlane,
  crossPlane,
  dualPoint,
  intersectFrontViewLines,
  kinematicRollCenter,
  macphersonAxis,
  planesIntersection,
  rollCenterFromFvic,
  steeringAxisMetrics,
  trailingArmAxis,
  wheelAxis,
  wheelFrame,
  wishbonePlanesAxis,
  type CornerInput,
  type CornerMetrics,
  type FrontViewPoint,
  type Line3,
  type RoadInput,
  type VehicleInput,
  type WheelInput,
} from '../../../src/suspension/metrics';

const DEG = 180 / Math.PI;
const R13 = tireRadius({ aspect_ratio: 0.55, section_width: 270, rim_diameter: 13 }); // 313.6
const WHEEL: WheelInput = { offset: 0, tireRadius: R13, sectionWidth: 270 };

/** The public sanity double wishbone of suspension.md (left corner). */
const SANITY: Record<string, Point3> = {
  lower_wishbone_inboard_front: [250, 400, 200],
  lower_wishbone_inboard_rear: [-250, 450, 200],
  lower_wishbone_outboard: [0, 900, 200],
  upper_wishbone_inboard_front: [225, 350, 500],
  upper_wishbone_inboard_rear: [-275, 350, 500],
  upper_wishbone_outboard: [-25, 750, 500],
  trackrod_inboard: [50, 200, 250],
  trackrod_outboard: [150, 800, 275],
  axle_inboard: [-20, 800, 308.426],
  axle_outboard: [-20, 950, 313.426],
};

const PUSHROD: Record<string, Point3> = {
  pushrod_outboard: [0, 870, 240],
  pushrod_inboard: [0, 340, 500],
  rocker_axis_a: [100, 340, 450],
  rocker_axis_b: [-100, 340, 450],
  strut_bottom: [0, 300, 470],
  strut_top: [0, 150, 500],
};

/** A double wishbone with inclined arms (finite instant centres) and a pushrod rocker. */
const DW_TILTED: Record<string, Point3> = {
  ...SANITY,
  ...PUSHROD,
  lower_wishbone_inboard_front: [250, 400, 210],
  lower_wishbone_inboard_rear: [-250, 450, 190],
  upper_wishbone_inboard_front: [225, 350, 470],
  upper_wishbone_inboard_rear: [-275, 350, 490],
};

const MACPHERSON: Record<string, Point3> = {
  lower_wishbone_inboard_front: [250, 400, 200],
  lower_wishbone_inboard_rear: [-250, 450, 200],
  lower_wishbone_outboard: [0, 900, 200],
  strut_top: [-40, 700, 850],
  strut_bottom: [-14, 830, 427.5],
  trackrod_inboard: [50, 200, 250],
  trackrod_outboard: [150, 800, 275],
  axle_inboard: [-20, 800, 308.426],
  axle_outboard: [-20, 950, 313.426],
};

const TRAILING: Record<string, Point3> = {
  trailing_arm_pivot_a: [1000, 500, 300],
  trailing_arm_pivot_b: [900, 700, 300],
  trailing_arm_outboard: [500, 850, 250],
  axle_inboard: [500, 800, 350],
  axle_outboard: [500, 1000, 350],
  strut_top: [750, 650, 750],
  strut_bottom: [600, 850, 350],
};

type Topology = 'double_wishbone' | 'macpherson' | 'trailing_arm';
const BASES: Record<Topology, Record<string, Point3>> = {
  double_wishbone: DW_TILTED,
  macpherson: MACPHERSON,
  trailing_arm: TRAILING,
};

const VEHICLE: VehicleInput = { cgPosition: [1250, 0, 450], wheelbase: 2500, frontBrakeBias: 0.6, drivenAxle: 'front' };

function constPoints(h: Record<string, Point3>, n: number): Record<string, DualVec3> {
  return Object.fromEntries(Object.entries(h).map(([k, p]) => [k, dualPoint(p, n)]));
}

interface BuildOptions {
  road?: RoadInput | null;
  vehicle?: VehicleInput;
  wheel?: WheelInput;
  wheelCenterZ?: number;
  rockerReference?: ArrayLike<number>;
  virtualAxis?: Line3 | null;
}

function buildInput(topology: Topology, side: Side, P: Record<string, DualVec3>, o: BuildOptions = {}): CornerInput {
  let steeringAxis: [DualVec3, DualVec3] | null = null;
  let instantAxis: Line3 | null;
  if (topology === 'double_wishbone') {
    steeringAxis = [P.lower_wishbone_outboard, P.upper_wishbone_outboard];
    instantAxis = wishbonePlanesAxis(
      P.lower_wishbone_inboard_front, P.lower_wishbone_inboard_rear, P.lower_wishbone_outboard,
      P.upper_wishbone_inboard_front, P.upper_wishbone_inboard_rear, P.upper_wishbone_outboard,
    );
  } else if (topology === 'macpherson') {
    steeringAxis = [P.lower_wishbone_outboard, P.strut_top];
    instantAxis = macphersonAxis(
      P.lower_wishbone_inboard_front, P.lower_wishbone_inboard_rear, P.lower_wishbone_outboard, P.strut_top, P.strut_bottom,
    );
  } else {
    instantAxis = trailingArmAxis(P.trailing_arm_pivot_a, P.trailing_arm_pivot_b);
  }
  return {
    side,
    points: P,
    steeringAxis,
    wheel: o.wheel ?? WHEEL,
    road: o.road ?? null,
    design: { wheelCenterZ: o.wheelCenterZ ?? 313.426, rockerReference: o.rockerReference },
    vehicle: o.vehicle ?? VEHICLE,
    axlePosition: topology === 'trailing_arm' ? 'rear' : 'front',
    instantAxis,
    virtualAxis: o.virtualAxis ?? null,
  };
}

const val = (d: Dual | null): number => {
  if (!d) throw new Error('unexpected null metric');
  return d.v;
};

describe('public sanity double wishbone at design', () => {
  const left = cornerMetrics(buildInput('double_wishbone', 'left', constPoints(SANITY, 0)), 0);
  const right = cornerMetrics(buildInput('double_wishbone', 'right', constPoints(mirrorHardpoints(SANITY), 0)), 0);

  it('gives the published camber, caster and toe on both sides', () => {
    for (const c of [left, right]) {
      expect(Math.abs(val(c.metrics.camber) - -1.909)).toBeLessThan(5e-4);
      expect(Math.abs(val(c.metrics.caster) - 4.764)).toBeLessThan(5e-4);
      expect(Math.abs(val(c.metrics.toe_angle))).toBeLessThan(1e-3);
      expect(Math.abs(val(c.metrics.steer_angle))).toBeLessThan(1e-3);
      expect(val(c.metrics.kpi)).toBeCloseTo(Math.atan2(150, 300) * DEG, 10);
    }
  });

  it('puts the derived points where the precise forms say', () => {
    const phi = Math.atan2(5, 150);
    const wc = left.points.wheel_center.v;
    expect(Array.from(wc)).toEqual([-20, 950, 313.426]);
    const c = left.points.wheel_contact_centre.v;
    expect(c[0]).toBeCloseTo(-20, 12);
    expect(c[1]).toBeCloseTo(950 + R13 * Math.sin(phi), 10);
    expect(c[2]).toBeCloseTo(313.426 - R13 * Math.cos(phi), 10);
    expect(val(left.metrics.half_track)).toBeCloseTo(c[1], 12);
    expect(val(right.metrics.half_track)).toBeCloseTo(c[1], 12);
    expect(right.points.wheel_contact_centre.v[1]).toBeCloseTo(-c[1], 12);
    expect(Array.from(left.points.axle_midpoint.v)).toEqual([-20, 875, 310.926]);
    const a = [0, Math.cos(phi), Math.sin(phi)];
    for (let i = 0; i < 3; i++) {
      expect(left.points.wheel_outboard.v[i]).toBeCloseTo(wc[i] + 135 * a[i], 10);
      expect(left.points.wheel_inboard.v[i]).toBeCloseTo(wc[i] - 135 * a[i], 10);
    }
    expect(val(left.metrics.wheel_travel)).toBe(0);
  });

  it('ground steering metrics agree with a plain hand construction', () => {
    // Axis (0,900,200) + t(−25,−150,300) meets z = C_z; the tyre frame is the chassis frame (toe 0).
    const c = left.points.wheel_contact_centre.v;
    const t = (c[2] - 200) / 300;
    const g = [-25 * t, 900 - 150 * t, c[2]];
    const dx = g[0] - c[0], dy = g[1] - c[1];
    expect(val(left.metrics.mechanical_trail)).toBeCloseTo(dx, 9);
    expect(val(left.metrics.steering_axis_offset_ground)).toBeCloseTo(-dy, 9); // G outboard → negative
    expect(val(left.metrics.scrub_radius)).toBeCloseTo(Math.hypot(dx, dy), 9);
    expect(val(right.metrics.mechanical_trail)).toBeCloseTo(dx, 9);
    expect(val(right.metrics.steering_axis_offset_ground)).toBeCloseTo(-dy, 9);
  });

  it('has horizontal parallel wishbones: instant centres at infinity, so null', () => {
    for (const name of ['svic_x', 'svic_z', 'fvic_y', 'fvic_z', 'svsa_length', 'fvsa_length', 'svsa_angle', 'anti_dive', 'anti_squat'] as const) {
      expect(left.metrics[name]).toBeNull();
    }
    expect(left.metrics.anti_lift).toBeNull(); // front axle
    expect(left.metrics.damper_length).toBeNull(); // no strut points
    expect(left.metrics.rocker_angle).toBeNull();
    expect(left.metrics.caster_virtual).toBeNull(); // no virtual axis given
  });

  it('a virtual axis equal to the kingpin (given pointing down) reproduces the physical steering metrics', () => {
    const P = constPoints(SANITY, 0);
    const virtualAxis: Line3 = { point: P.upper_wishbone_outboard, direction: subtract(P.lower_wishbone_outboard, P.upper_wishbone_outboard) };
    const m = cornerMetrics(buildInput('double_wishbone', 'left', P, { virtualAxis }), 0);
    for (const k of ['caster', 'kpi', 'steering_axis_offset_ground', 'scrub_radius', 'mechanical_trail'] as const) {
      expect(val(m.metrics[`${k}_virtual`])).toBeCloseTo(val(m.metrics[k]), 10);
    }
  });

  it('the axle of the sanity corners: roll centre from FVICs is null (parallel arms), kinematic on the ground midway for vertical velocities', () => {
    const road = axleRoadPlane(
      { ...wheelAxis(dualPoint(SANITY.axle_inboard, 0), dualPoint(SANITY.axle_outboard, 0), 0), tireRadius: R13 },
      { ...wheelAxis(dualPoint([-20, -800, 308.426], 0), dualPoint([-20, -950, 313.426], 0), 0), tireRadius: R13 },
    )!;
    expect(Array.from(road.normal.v)).toEqual([0, 0, 1]);
    const up = { y: new Dual(0, 0), z: new Dual(0, 1) };
    const m = axleMetrics(left, right, axleDesignReference(left, right, road), 0, {
      road, rackDisplacement: null, kinematic: { left: { velocity: up }, right: { velocity: up } },
    });
    expect(m.roll_center_y).toBeNull();
    expect(m.roll_center_z).toBeNull();
    // both contact points rise straight up: both lines run along the ground, so the roll
    // centre is on the ground, midway by symmetry
    const cl = left.points.wheel_contact_centre.v, cr = right.points.wheel_contact_centre.v;
    expect(val(m.roll_center_kinematic_y)).toBeCloseTo((cl[1] + cr[1]) / 2, 10);
    expect(val(m.roll_center_kinematic_z)).toBeCloseTo(cl[2], 10);
    expect(val(m.roll)).toBe(0);
    expect(val(m.heave)).toBe(0);
    expect(val(m.track)).toBeCloseTo(2 * val(left.metrics.half_track), 10);
    expect(val(m.track_change)).toBeCloseTo(0, 10);
    expect(val(m.ride_height_change)).toBe(0);
    expect(m.rack_displacement).toBeNull();
  });
});

/** A corner built from a unit spin axis a and wheel centre wc (offset 0: axle_outboard = wc). */
function wheelOnly(side: Side, a: Point3, wc: Point3, steeringAxis: [Point3, Point3] | null = null): CornerMetrics {
  const inboard: Point3 = [wc[0] - 100 * a[0], wc[1] - 100 * a[1], wc[2] - 100 * a[2]];
  const P = constPoints({ axle_inboard: inboard, axle_outboard: wc }, 0);
  return cornerMetrics({
    side, points: P, wheel: WHEEL, road: null, design: { wheelCenterZ: wc[2] }, vehicle: {}, axlePosition: 'front', instantAxis: null,
    steeringAxis: steeringAxis ? [dualPoint(steeringAxis[0], 0), dualPoint(steeringAxis[1], 0)] : null,
  }, 0);
}

describe('sign conventions', () => {
  const psi = 0.05, phi = 0.03;
  const s = Math.sin(psi), c = Math.cos(psi);

  it('toe-in is positive on both sides; steer_angle = −toe on the left, +toe on the right', () => {
    // Left toe-in: the heading X_T = (a_y, −a_x) points right (inboard) when a_x > 0.
    const l = wheelOnly('left', [s, c, 0], [0, 800, 300]);
    expect(val(l.metrics.toe_angle)).toBeCloseTo(psi * DEG, 12);
    expect(val(l.metrics.steer_angle)).toBeCloseTo(-psi * DEG, 12);
    // Right toe-in: heading (−a_y, a_x) points left (inboard) when a_x > 0.
    const r = wheelOnly('right', [s, -c, 0], [0, -800, 300]);
    expect(val(r.metrics.toe_angle)).toBeCloseTo(psi * DEG, 12);
    expect(val(r.metrics.steer_angle)).toBeCloseTo(psi * DEG, 12);
    expect(r.frame.heading.v[1]).toBeGreaterThan(0);
  });

  it('a left wheel whose front points left has positive steer and negative toe', () => {
    const l = wheelOnly('left', [-s, c, 0], [0, 800, 300]);
    expect(l.frame.heading.v[1]).toBeGreaterThan(0);
    expect(val(l.metrics.steer_angle)).toBeGreaterThan(0);
    expect(val(l.metrics.toe_angle)).toBeLessThan(0);
  });

  it('turning both wheels by ψ about +z (a left turn) gives steer_angle ψ on both', () => {
    // R_z(ψ)(0, ±1, 0) = (∓sin ψ, ±cos ψ, 0).
    const l = wheelOnly('left', [-s, c, 0], [0, 800, 300]);
    const r = wheelOnly('right', [s, -c, 0], [0, -800, 300]);
    expect(val(l.metrics.steer_angle)).toBeCloseTo(psi * DEG, 12);
    expect(val(r.metrics.steer_angle)).toBeCloseTo(psi * DEG, 12);
    expect(val(l.metrics.toe_angle)).toBeCloseTo(-psi * DEG, 12);
    expect(val(r.metrics.toe_angle)).toBeCloseTo(psi * DEG, 12);
  });

  it('camber is negative when the top leans inboard, on both sides', () => {
    // Top leaning in turns the outboard spin axis upward: a_z > 0.
    const l = wheelOnly('left', [0, Math.cos(phi), Math.sin(phi)], [0, 800, 300]);
    const r = wheelOnly('right', [0, -Math.cos(phi), Math.sin(phi)], [0, -800, 300]);
    expect(val(l.metrics.camber)).toBeCloseTo(-phi * DEG, 12);
    expect(val(r.metrics.camber)).toBeCloseTo(-phi * DEG, 12);
    const lo = wheelOnly('left', [0, Math.cos(phi), -Math.sin(phi)], [0, 800, 300]);
    expect(val(lo.metrics.camber)).toBeCloseTo(phi * DEG, 12);
  });

  it('caster (top rearward), kpi (top inward), offset (ground point inboard), trail (ahead) are positive on both sides', () => {
    // Axis through the ground 20 mm ahead and 30 mm inboard of C (C = (0, ±800, 0)), top rearward and inward.
    for (const side of ['left', 'right'] as const) {
      const sg = side === 'left' ? 1 : -1;
      const g: Point3 = [20, sg * 770, 0];
      const top: Point3 = [20 - 30, sg * (770 - 60), 300];
      const m = wheelOnly(side, [0, sg, 0], [0, sg * 800, R13], [g, top]);
      expect(val(m.metrics.caster)).toBeCloseTo(Math.atan2(30, 300) * DEG, 12);
      expect(val(m.metrics.kpi)).toBeCloseTo(Math.atan2(60, 300) * DEG, 12);
      expect(val(m.metrics.steering_axis_offset_ground)).toBeCloseTo(30, 9);
      expect(val(m.metrics.mechanical_trail)).toBeCloseTo(20, 9);
      expect(val(m.metrics.scrub_radius)).toBeCloseTo(Math.hypot(20, 30), 9);
    }
  });

  it('steeringAxisMetrics turns a downward axis up, and reports no ground point for an axis parallel to the road', () => {
    const m = wheelOnly('left', [0, 1, 0], [0, 800, R13]);
    const up = steeringAxisMetrics(dualPoint([20, 770, 0], 0), dualPoint([-30, -60, 300], 0), m.frame);
    const down = steeringAxisMetrics(dualPoint([20, 770, 0], 0), dualPoint([30, 60, -300], 0), m.frame);
    for (const k of Object.keys(up) as (keyof typeof up)[]) expect(val(down[k])).toBeCloseTo(val(up[k]), 12);
    const flat = steeringAxisMetrics(dualPoint([20, 770, 100], 0), dualPoint([1, 0, 0], 0), m.frame);
    expect(flat.scrub_radius).toBeNull();
    expect(flat.mechanical_trail).toBeNull();
    expect(val(flat.caster)).toBeCloseTo(-90, 12);
  });

  it('wheel offset moves the wheel centre inboard along the spin axis', () => {
    const { wheelCenter } = wheelAxis(dualPoint([0, 800, 300], 0), dualPoint([0, 950, 300], 0), 25);
    expect(Array.from(wheelCenter.v)).toEqual([0, 925, 300]);
    const r = wheelAxis(dualPoint([0, -800, 300], 0), dualPoint([0, -950, 300], 0), 25);
    expect(Array.from(r.wheelCenter.v)).toEqual([0, -925, 300]);
  });
});

describe('instant axes and instant centres', () => {
  // Lower plane z = 200 + 0.1(y − 400) + 0.05x, upper z = 500 − 0.1(y − 350) − 0.05x.
  // Equal: 0.2y = 375 − 0.1x → the line y = 1875 − 0.5x, z = 347.5.
  const tilted: Record<string, Point3> = {
    ...SANITY,
    lower_wishbone_inboard_front: [250, 400, 212.5],
    lower_wishbone_inboard_rear: [-250, 400, 187.5],
    lower_wishbone_outboard: [0, 900, 250],
    upper_wishbone_inboard_front: [225, 350, 488.75],
    upper_wishbone_inboard_rear: [-275, 350, 513.75],
    upper_wishbone_outboard: [-25, 750, 461.25],
  };

  it('wishbonePlanesAxis finds the hand-computed line', () => {
    const P = constPoints(tilted, 0);
    const axis = wishbonePlanesAxis(
      P.lower_wishbone_inboard_front, P.lower_wishbone_inboard_rear, P.lower_wishbone_outboard,
      P.upper_wishbone_inboard_front, P.upper_wishbone_inboard_rear, P.upper_wishbone_outboard,
    )!;
    const u = axis.direction.v, l = Math.hypot(u[0], u[1], u[2]);
    expect(Math.abs(u[0] / l)).toBeCloseTo(2 / Math.sqrt(5), 12);
    expect(u[1] / u[0]).toBeCloseTo(-0.5, 12);
    expect(u[2] / l).toBeCloseTo(0, 12);
    expect(axis.point.v[1]).toBeCloseTo(1875 - 0.5 * axis.point.v[0], 9);
    expect(axis.point.v[2]).toBeCloseTo(347.5, 9);
    const f = crossCoordinatePlane(axis, 0, new Dual(0, -20))!;
    expect(Array.from(f.v).map((x) => +x.toFixed(9))).toEqual([-20, 1885, 347.5]);
    const s = crossCoordinatePlane(axis, 1, new Dual(0, 950))!;
    expect(Array.from(s.v).map((x) => +x.toFixed(9))).toEqual([1850, 950, 347.5]);
    expect(crossCoordinatePlane(axis, 2, new Dual(0, 0))).toBeNull(); // the line is horizontal
  });

  it('cornerMetrics reports the ICs, swing-arm lengths, angle and anti-dive by the precise forms', () => {
    const m = cornerMetrics(buildInput('double_wishbone', 'left', constPoints(tilted, 0)), 0);
    const c = m.points.wheel_contact_centre.v;
    expect(val(m.metrics.fvic_y)).toBeCloseTo(1885, 9);
    expect(val(m.metrics.fvic_z)).toBeCloseTo(347.5, 9);
    expect(val(m.metrics.svic_x)).toBeCloseTo(1850, 9);
    expect(val(m.metrics.svic_z)).toBeCloseTo(347.5, 9);
    expect(val(m.metrics.svsa_length)).toBeCloseTo(1850 - c[0], 9);
    // The FVIC is outboard of C here: negative.
    expect(val(m.metrics.fvsa_length)).toBeCloseTo(-Math.hypot(1885 - c[1], 347.5 - c[2]), 9);
    expect(val(m.metrics.svsa_angle)).toBeCloseTo(Math.atan((347.5 - c[2]) / (1850 - c[0])) * DEG, 9);
    const h = 450 - c[2];
    const tanTheta = (347.5 - c[2]) / (c[0] - 1850);
    expect(val(m.metrics.anti_dive)).toBeCloseTo(100 * 0.6 * (2500 / h) * tanTheta, 9);
    expect(val(m.metrics.anti_squat)).toBeCloseTo(100 * (2500 / h) * ((347.5 - 313.426) / (-20 - 1850)), 9);
    expect(m.metrics.anti_lift).toBeNull();
    // Not driven, no bias: no anti features at all.
    const bare = cornerMetrics(buildInput('double_wishbone', 'left', constPoints(tilted, 0), { vehicle: { cgPosition: [0, 0, 450], wheelbase: 2500 } }), 0);
    expect(bare.metrics.anti_dive).toBeNull();
    expect(bare.metrics.anti_squat).toBeNull();
  });

  it('macphersonAxis meets the lower-arm plane with the plane through strut_top normal to the strut', () => {
    // Lower plane z = 200; strut plane −100(y − 700) + 400(z − 800) = 0 → at z = 200, y = −1700; line along x.
    const P = constPoints({ ...MACPHERSON, strut_top: [0, 700, 800], strut_bottom: [0, 800, 400] }, 0);
    const axis = macphersonAxis(P.lower_wishbone_inboard_front, P.lower_wishbone_inboard_rear, P.lower_wishbone_outboard, P.strut_top, P.strut_bottom)!;
    const f = crossCoordinatePlane(axis, 0, new Dual(0, -20))!;
    expect(f.v[1]).toBeCloseTo(-1700, 9);
    expect(f.v[2]).toBeCloseTo(200, 9);
    expect(crossCoordinatePlane(axis, 1, new Dual(0, 950))).toBeNull();
    // A strut normal to the lower arm plane gives parallel planes.
    const Q = constPoints({ ...MACPHERSON, strut_top: [0, 800, 800], strut_bottom: [0, 800, 400] }, 0);
    expect(macphersonAxis(Q.lower_wishbone_inboard_front, Q.lower_wishbone_inboard_rear, Q.lower_wishbone_outboard, Q.strut_top, Q.strut_bottom)).toBeNull();
  });

  it('planesIntersection: x = 1 and y = 2 meet in the line through (1, 2, 0) along z', () => {
    const line = planesIntersection(
      { point: dualPoint([1, 5, 7], 0), normal: dualPoint([2, 0, 0], 0) },
      { point: dualPoint([-3, 2, 9], 0), normal: dualPoint([0, 1, 0], 0) },
    )!;
    expect(Array.from(line.point.v)).toEqual([1, 2, 0]);
    expect(line.direction.v[0]).toBe(0);
    expect(line.direction.v[1]).toBe(0);
    expect(Math.abs(line.direction.v[2])).toBeGreaterThan(0);
    expect(planesIntersection(
      { point: dualPoint([0, 0, 0], 0), normal: dualPoint([0, 0, 1], 0) },
      { point: dualPoint([0, 0, 5], 0), normal: dualPoint([0, 0, -3], 0) },
    )).toBeNull();
    const hit = crossPlane({ point: dualPoint([0, 0, 10], 0), direction: dualPoint([1, 1, -2], 0) },
      { point: dualPoint([0, 0, 0], 0), normal: dualPoint([0, 0, 1], 0) })!;
    expect(Array.from(hit.v)).toEqual([5, 5, 0]);
    expect(crossPlane({ point: dualPoint([0, 0, 10], 0), direction: dualPoint([1, 1, 0], 0) },
      { point: dualPoint([0, 0, 0], 0), normal: dualPoint([0, 0, 1], 0) })).toBeNull();
  });

  it('trailing arm: the pivot axis; no physical steering axis', () => {
    const m = cornerMetrics(buildInput('trailing_arm', 'left', constPoints(TRAILING, 0), { wheelCenterZ: 350, vehicle: { ...VEHICLE, drivenAxle: 'rear' } }), 0);
    // Pivot line (1000,500,300) + t(−100,200,0): at y = 1000, t = 2.5 → x = 750; at x = 500, t = 5 → y = 1500.
    expect(val(m.metrics.svic_x)).toBeCloseTo(750, 9);
    expect(val(m.metrics.svic_z)).toBeCloseTo(300, 9);
    expect(val(m.metrics.fvic_y)).toBeCloseTo(1500, 9);
    expect(val(m.metrics.fvic_z)).toBeCloseTo(300, 9);
    for (const k of ['caster', 'kpi', 'steering_axis_offset_ground', 'scrub_radius', 'mechanical_trail'] as const) expect(m.metrics[k]).toBeNull();
    const c = m.points.wheel_contact_centre.v; // (500, 1000, 350 − 313.6)
    const h = 450 - c[2];
    expect(val(m.metrics.anti_lift)).toBeCloseTo(100 * 0.4 * (2500 / h) * ((300 - c[2]) / (750 - 500)), 9);
    expect(val(m.metrics.anti_squat)).toBeCloseTo(100 * (2500 / h) * ((300 - 350) / (750 - 500)), 9);
    expect(m.metrics.anti_dive).toBeNull();
    expect(val(m.metrics.damper_length)).toBeCloseTo(Math.hypot(150, 200, 400), 12);
  });

  it('rocker_angle is σ × the turn of pushrod_inboard about a → b since design', () => {
    // Axis a → b runs along −x; turn pushrod_inboard by +β about −x around (·, 340, 450).
    const beta = 0.2;
    const r0 = [0, 0, 50]; // pushrod_inboard − axis point, normal to the axis
    // Rotation about −x by β: (y, z) → (y cos β + z sin β, −y sin β + z cos β).
    const turned: Point3 = [0, 340 + r0[1] * Math.cos(beta) + r0[2] * Math.sin(beta), 450 - r0[1] * Math.sin(beta) + r0[2] * Math.cos(beta)];
    const left = cornerMetrics(buildInput('double_wishbone', 'left', constPoints({ ...DW_TILTED, pushrod_inboard: turned }, 0), { rockerReference: PUSHROD.pushrod_inboard }), 0);
    expect(val(left.metrics.rocker_angle)).toBeCloseTo(beta * DEG, 10);
    const mirrored = mirrorHardpoints({ ...DW_TILTED, pushrod_inboard: turned });
    const right = cornerMetrics(buildInput('double_wishbone', 'right', constPoints(mirrored, 0), { rockerReference: [0, -340, 500] }), 0);
    // Mirroring reverses the sense of the turn about the same a → b direction; σ = −1 restores it.
    expect(val(right.metrics.rocker_angle)).toBeCloseTo(beta * DEG, 10);
    expect(val(left.metrics.damper_length)).toBeCloseTo(Math.hypot(150, 30), 12);
  });
});

describe('roll centres', () => {
  const fv = (y: number, z: number): FrontViewPoint => ({ y: new Dual(0, y), z: new Dual(0, z) });

  it('a swing axle pivoting on the centreline at height h has its roll centre at h', () => {
    const h = 120;
    const rc = rollCenterFromFvic(fv(800, 0), fv(0, h), fv(-800, 0), fv(0, h))!;
    expect(rc.y.v).toBeCloseTo(0, 12);
    expect(rc.z.v).toBeCloseTo(h, 12);
    // End to end: each half-shaft turns about the x-directed line through (·, 0, h).
    const corner = (side: Side): CornerMetrics => {
      const sg = side === 'left' ? 1 : -1;
      const P = constPoints({ axle_inboard: [0, sg * 700, R13], axle_outboard: [0, sg * 800, R13] }, 0);
      return cornerMetrics({
        side, points: P, steeringAxis: null, wheel: WHEEL, road: null, design: { wheelCenterZ: R13 }, vehicle: {},
        axlePosition: 'rear', instantAxis: trailingArmAxis(dualPoint([1000, 0, h], 0), dualPoint([-1000, 0, h], 0)),
      }, 0);
    };
    const l = corner('left'), r = corner('right');
    expect(l.metrics.svic_x).toBeNull(); // pivot parallel to y = const planes
    expect(val(l.metrics.fvic_y)).toBeCloseTo(0, 12);
    expect(val(l.metrics.fvsa_length)).toBeCloseTo(Math.hypot(800, h), 9);
    expect(val(r.metrics.fvsa_length)).toBeCloseTo(Math.hypot(800, h), 9);
    const road = axleRoadPlane({ ...wheelAxis(dualPoint([0, 700, R13], 0), dualPoint([0, 800, R13], 0), 0), tireRadius: R13 },
      { ...wheelAxis(dualPoint([0, -700, R13], 0), dualPoint([0, -800, R13], 0), 0), tireRadius: R13 })!;
    const m = axleMetrics(l, r, { track: 1600, rideHeight: 0 }, 0, { road, rackDisplacement: new Dual(0, 3) });
    expect(val(m.roll_center_y)).toBeCloseTo(0, 9);
    expect(val(m.roll_center_z)).toBeCloseTo(h, 9);
    expect(val(m.rack_displacement)).toBe(3);
    expect(val(m.track_change)).toBeCloseTo(0, 9);
  });

  it('intersectFrontViewLines returns null for parallel lines', () => {
    expect(intersectFrontViewLines(fv(800, 0), fv(-1, 0), fv(-800, 0), fv(1, 0))).toBeNull();
    expect(rollCenterFromFvic(fv(800, 0), null, fv(-800, 0), fv(0, 100))).toBeNull();
  });

  it('kinematic roll centre: velocities perpendicular to the lines to a pivot give the pivot', () => {
    fc.assert(fc.property(
      fc.double({ min: -200, max: 200, noNaN: true }), fc.double({ min: 20, max: 500, noNaN: true }),
      fc.double({ min: 0.2, max: 3, noNaN: true }), fc.double({ min: -3, max: -0.2, noNaN: true }),
      (py, h, wl, wr) => {
        const cl = fv(800, 0), cr = fv(-790, 5);
        // v = ω × r in front view: r = C − P = (r_y, r_z) → v = ω (−r_z, r_y).
        const vel = (c: FrontViewPoint, w: number): FrontViewPoint => fv(-w * (c.z.v - h), w * (c.y.v - py));
        const rc = kinematicRollCenter(cl, vel(cl, wl), cr, vel(cr, wr))!;
        expect(rc.y.v).toBeCloseTo(py, 8);
        expect(rc.z.v).toBeCloseTo(h, 8);
      },
    ));
    // Pivot (0, 100): r_L = (800, −100) → v_L ∝ (100, 800); r_R = (−800, −100) → v_R ∝ (100, −800).
    const rc = kinematicRollCenter(fv(800, 0), fv(100, 800), fv(-800, 0), fv(100, -800))!;
    expect(rc.y.v).toBeCloseTo(0, 12);
    expect(rc.z.v).toBeCloseTo(100, 12);
  });
});

describe('axle road plane and axle metrics', () => {
  const wheel = (a: Point3, wc: Point3, r = 300) => {
    const inb: Point3 = [wc[0] - 100 * a[0], wc[1] - 100 * a[1], wc[2] - 100 * a[2]];
    return { ...wheelAxis(dualPoint(inb, 0), dualPoint(wc, 0), 0), tireRadius: r };
  };

  it('equal level wheels, with or without symmetric camber, give the normal (0, 0, 1)', () => {
    for (const phi of [0, 0.04]) {
      const road = axleRoadPlane(wheel([0, Math.cos(phi), Math.sin(phi)], [0, 800, 300]), wheel([0, -Math.cos(phi), Math.sin(phi)], [0, -800, 300]))!;
      expect(road.normal.v[0]).toBe(0);
      expect(road.normal.v[1]).toBeCloseTo(0, 15);
      expect(road.normal.v[2]).toBeCloseTo(1, 15);
      expect(road.point.v[2]).toBeCloseTo(300 - 300 * Math.cos(phi), 10);
    }
  });

  it('vertical wheels at different heights: tan θ = −Δz/Δy, both discs tangent', () => {
    const L = wheel([0, 1, 0], [10, 800, 330], 300), Rw = wheel([0, -1, 0], [10, -780, 290], 310);
    const road = axleRoadPlane(L, Rw)!;
    // h(θ) = sin θ·y + cos θ·(z − R) for a vertical wheel: tan θ = −((z_L − R_L) − (z_R − R_R))/(y_L − y_R).
    expect(Math.tan(road.theta.v)).toBeCloseTo(-((330 - 300) - (290 - 310)) / 1580, 14);
    const n = road.normal.v, q = road.point.v;
    const height = (wc: Float64Array, a: Float64Array, r: number) => {
      const m = n[0] * a[0] + n[1] * a[1] + n[2] * a[2];
      return n[0] * (wc[0] - q[0]) + n[1] * (wc[1] - q[1]) + n[2] * (wc[2] - q[2]) - r * Math.sqrt(1 - m * m);
    };
    expect(height(L.wheelCenter.v, L.spin.v, 300)).toBeCloseTo(0, 10);
    expect(height(Rw.wheelCenter.v, Rw.spin.v, 310)).toBeCloseTo(0, 10);
  });

  it('roll is positive with the left wheel up; heave is the mean travel; ride height falls in bump', () => {
    const design = { left: cornerMetrics(buildInput('double_wishbone', 'left', constPoints(SANITY, 0)), 0),
      right: cornerMetrics(buildInput('double_wishbone', 'right', constPoints(mirrorHardpoints(SANITY), 0)), 0) };
    const roadOf = (l: CornerMetrics, r: CornerMetrics) => axleRoadPlane(
      { wheelCenter: l.points.wheel_center, spin: l.frame.spin, tireRadius: R13 },
      { wheelCenter: r.points.wheel_center, spin: r.frame.spin, tireRadius: R13 })!;
    const ref = axleDesignReference(design.left, design.right, roadOf(design.left, design.right));
    const shift = (h: Record<string, Point3>, dz: number) => Object.fromEntries(Object.entries(h).map(([k, [x, y, z]]) => [k, [x, y, z + dz] as Point3]));
    const l = cornerMetrics(buildInput('double_wishbone', 'left', constPoints(shift(SANITY, 30), 0)), 0);
    const r = cornerMetrics(buildInput('double_wishbone', 'right', constPoints(shift(mirrorHardpoints(SANITY), 10), 0)), 0);
    const road = roadOf(l, r);
    const m = axleMetrics(l, r, ref, 0, { road, rackDisplacement: null });
    expect(val(m.heave)).toBeCloseTo(20, 10);
    expect(val(m.roll)).toBeCloseTo(Math.atan2(20, 1900) * DEG, 10);
    expect(val(m.roll)).toBeGreaterThan(0);
    const level = axleMetrics(cornerMetrics(buildInput('double_wishbone', 'left', constPoints(shift(SANITY, 10), 0)), 0),
      cornerMetrics(buildInput('double_wishbone', 'right', constPoints(shift(mirrorHardpoints(SANITY), 10), 0)), 0), ref, 0,
      { road: roadOf(cornerMetrics(buildInput('double_wishbone', 'left', constPoints(shift(SANITY, 10), 0)), 0),
        cornerMetrics(buildInput('double_wishbone', 'right', constPoints(shift(mirrorHardpoints(SANITY), 10), 0)), 0)), rackDisplacement: null });
    expect(val(level.ride_height_change)).toBeCloseTo(-10, 10);
    expect(val(level.track_change)).toBeCloseTo(0, 10);
    expect(val(level.roll)).toBeCloseTo(0, 12);
  });
});

// ---------------------------------------------------------------------------------------
// Forward-mode derivatives against central differences.

type Flat = Map<string, Dual | null>;

/**
 * Everything the metrics produce for an axle of one topology whose points are given per
 * side, flattened: both corners on the axle road plane and on their own default road,
 * the axle metrics, the road plane and every derived point's components.
 */
function evaluateAll(topology: Topology, pts: { left: Record<string, DualVec3>; right: Record<string, DualVec3> }, n: number, offset: number): Flat {
  const out: Flat = new Map();
  const wheelIn: WheelInput = { offset, tireRadius: R13, sectionWidth: 270 };
  const base = BASES[topology];
  const virtualOf = (P: Record<string, DualVec3>): Line3 => topology === 'trailing_arm'
    ? { point: P.strut_top, direction: subtract(P.strut_bottom, P.strut_top) }
    : { point: P.lower_wishbone_outboard, direction: subtract(P.lower_wishbone_outboard, topology === 'macpherson' ? P.strut_top : P.upper_wishbone_outboard) };
  const options = (side: Side, P: Record<string, DualVec3>, road: RoadInput | null): BuildOptions => ({
    road, wheel: wheelIn, wheelCenterZ: 300, virtualAxis: virtualOf(P),
    rockerReference: base.pushrod_inboard ? [base.pushrod_inboard[0], (side === 'left' ? 1 : -1) * base.pushrod_inboard[1] + 7, base.pushrod_inboard[2] - 9] : undefined,
    vehicle: topology === 'trailing_arm' ? { ...VEHICLE, drivenAxle: 'rear' } : VEHICLE,
  });
  const wheelOf = (P: Record<string, DualVec3>) => ({ ...wheelAxis(P.axle_inboard, P.axle_outboard, offset), tireRadius: R13 });
  const road = axleRoadPlane(wheelOf(pts.left), wheelOf(pts.right));
  if (!road) throw new Error('road plane failed');
  out.set('road.theta', road.theta);
  for (let i = 0; i < 3; i++) out.set(`road.point.${i}`, comp3(road.point, i));
  const corners: Partial<Record<Side, CornerMetrics>> = {};
  for (const side of ['left', 'right'] as const) {
    const P = pts[side];
    for (const [tag, r] of [['own', null], ['axle', road]] as const) {
      const m = cornerMetrics(buildInput(topology, side, P, options(side, P, r)), n);
      for (const name of CORNER_METRIC_NAMES) out.set(`${side}.${tag}.${name}`, m.metrics[name]);
      for (const p of DERIVED_POINT_NAMES) for (let i = 0; i < 3; i++) out.set(`${side}.${tag}.${p}.${i}`, comp3(m.points[p], i));
      if (tag === 'axle') corners[side] = m;
    }
  }
  const fvOf = (v: DualVec3): FrontViewPoint => ({ y: comp3(v, 1), z: comp3(v, 2) });
  const axle = axleMetrics(corners.left!, corners.right!, { track: 1900, rideHeight: 10 }, n, {
    road,
    rackDisplacement: comp3(pts.left.axle_inboard, 0),
    kinematic: {
      left: { velocity: fvOf(subtract(pts.left.axle_inboard, pts.left.strut_top ?? pts.left.upper_wishbone_outboard)) },
      right: { velocity: fvOf(subtract(pts.right.axle_inboard, pts.right.strut_top ?? pts.right.upper_wishbone_outboard)) },
    },
  });
  for (const name of AXLE_METRIC_NAMES) out.set(`axle.${name}`, axle[name]);
  // The frame helper on its own, too.
  const f = wheelFrame('left', pts.left.axle_inboard, pts.left.axle_outboard, wheelIn, road, n);
  for (let i = 0; i < 3; i++) out.set(`frame.heading.${i}`, comp3(f.heading, i));
  return out;
}

function subtract(a: DualVec3, b: DualVec3): DualVec3 {
  const out = new DualVec3(a.n);
  for (let i = 0; i < 3; i++) out.v[i] = a.v[i] - b.v[i];
  for (let i = 0; i < out.d.length; i++) out.d[i] = a.d[i] - b.d[i];
  return out;
}
function comp3(a: DualVec3, i: number): Dual {
  const out = new Dual(a.n, a.v[i]);
  for (let k = 0; k < a.n; k++) out.d[k] = a.d[i * a.n + k];
  return out;
}

const coord = fc.double({ min: -1, max: 1, noNaN: true });
const vec = fc.tuple(coord, coord, coord);

const EXPECTED_NULLS: Record<Topology, string[]> = {
  double_wishbone: ['anti_lift'],
  macpherson: ['anti_lift', 'rocker_angle'],
  trailing_arm: ['caster', 'kpi', 'steering_axis_offset_ground', 'scrub_radius', 'mechanical_trail', 'anti_dive', 'rocker_angle'],
};

describe('forward-mode derivatives equal central differences', () => {
  const topologies: Topology[] = ['double_wishbone', 'macpherson', 'trailing_arm'];
  for (const topology of topologies) {
    it(`${topology}: every corner and axle metric, both sides, two directions at once`, () => {
      const names = Object.keys(BASES[topology]);
      const sideBase = (side: Side) => (side === 'left' ? BASES[topology] : mirrorHardpoints(BASES[topology]));
      const perSide = fc.record(Object.fromEntries(names.map((k) => [k, fc.tuple(vec, vec, vec)])) as Record<string, fc.Arbitrary<[Point3, Point3, Point3]>>);
      fc.assert(fc.property(perSide, perSide, fc.double({ min: -20, max: 20, noNaN: true }), (left, right, offset) => {
        // [0]: a base perturbation (±8 mm, so the check runs away from design symmetry), [1], [2]: two tangent directions.
        const draws = { left, right };
        const position = (side: Side, k: string, t: number, dir: 1 | 2): Point3 => {
          const p = sideBase(side)[k], q = draws[side][k];
          return [0, 1, 2].map((i) => p[i] + 8 * q[0][i] + t * q[dir][i]) as Point3;
        };
        const pointsAt = (n: number, t: number, dir: 1 | 2) => {
          const build = (side: Side) => Object.fromEntries(names.map((k) => [k, dualPoint(position(side, k, t, dir), n,
            n === 2 ? [draws[side][k][1], draws[side][k][2]] : [])]));
          return { left: build('left'), right: build('right') };
        };
        const ad = evaluateAll(topology, pointsAt(2, 0, 1), 2, offset);
        // Only what does not apply to the topology is null, so every other metric is checked below.
        for (const side of ['left', 'right']) {
          for (const tag of ['own', 'axle']) {
            const nulls = [...ad].filter(([k, v]) => !v && k.startsWith(`${side}.${tag}.`)).map(([k]) => k.split('.')[2]);
            expect(nulls.sort()).toEqual([...EXPECTED_NULLS[topology]].sort());
          }
        }
        expect([...ad].filter(([k, v]) => !v && k.startsWith('axle.'))).toEqual([]);
        const zero = evaluateAll(topology, pointsAt(0, 0, 1), 0, offset);
        // n = 0 runs the same code and gives the same values.
        for (const [key, d] of ad) expect(zero.get(key)?.v ?? null, key).toBe(d ? d.v : null);
        const h = 1e-2;
        for (const dir of [1, 2] as const) {
          const f = [-2, -1, 1, 2].map((s) => evaluateAll(topology, pointsAt(0, s * h, dir), 0, offset));
          for (const [key, d] of ad) {
            if (!d) continue;
            const vals = f.map((m) => m.get(key));
            if (vals.some((x) => !x)) throw new Error(`${key} turned null next to a defined value`);
            const [m2, m1, p1, p2] = vals.map((x) => x!.v);
            const fd = (8 * (p1 - m1) - (p2 - m2)) / (12 * h);
            const exact = d.d[dir - 1];
            const tol = 1e-6 * Math.max(Math.abs(exact), Math.abs(fd)) + 1e-9 * (1 + Math.abs(d.v));
            expect(Math.abs(exact - fd), `${key} along direction ${dir}: AD ${exact}, FD ${fd}`).toBeLessThanOrEqual(tol);
          }
        }
      }), { numRuns: 40 });
    });
  }

  it('derivatives that must vanish do: camber, steer and caster for an axle point sliding along the spin axis', () => {
    const P = constPoints(SANITY, 1);
    // Slide the outboard axle point along the axle: direction unchanged.
    const a = [0, 150, 5].map((x) => x / Math.hypot(150, 5));
    P.axle_outboard = dualPoint(SANITY.axle_outboard, 1, [a]);
    const m = cornerMetrics(buildInput('double_wishbone', 'left', P), 1);
    expect(Math.abs(m.metrics.camber!.d[0])).toBeLessThan(1e-15);
    expect(Math.abs(m.metrics.steer_angle!.d[0])).toBeLessThan(1e-15);
    expect(Math.abs(m.metrics.caster!.d[0])).toBe(0);
    expect(m.points.wheel_center.d[1]).toBeCloseTo(a[1], 15);
  });
});
