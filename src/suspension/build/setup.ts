/**
 * The setup solve (`suspension-devices.md`, "Camber-shim setup solve"): shims change the
 * design geometry once, before any sweep, and the solved points become the design state.
 *
 * The reference solves ten rows in (θ, rc, ru): the upper wishbone angle and the rotations
 * of the camber block and of the upright. Its roots have rc = ru, and with them rows 1–3
 * say one thing: the upright, turned about the fixed lower ball joint, carries the point
 * UBJ0 − (T − T0)·n0 onto the upper ball joint's arc. So we solve that as a small mated
 * assembly of its own — chassis, upper wishbone on its hinge, the upright balled at the LBJ
 * and at the shifted UBJ, the track rod at its (shimmed) length, and a rocker turned to keep
 * the (shimmed) pushrod length — and read the points back from the parts' poses.
 */
import * as P from '../../../kernel/pose';
import { solve } from '../../../kernel/solver/solve';
import type { AssemblyDoc, AxisDoc, MateDoc, PartDoc, PoseDoc } from '../../assembly/types';
import { buildModel } from '../../model/build';
import type { ProblemList } from '../files/errors';
import type { Geometry, CornerGeometry } from '../files/geometry-types';
import type { Point3 } from '../files/read';
import { usesRocker } from '../files/hardpoints';

/** Points rigid on the rocker (turned by the setup's rocker angle). */
const ROCKER_POINTS = ['pushrod_inboard', 'strut_bottom', 'droplink_rocker', 'heave_link_rocker', 'damper_rocker'];
/** Thickness changes below this change nothing (the reference's threshold), mm. */
const SAME_THICKNESS_MM = 1e-6;

/**
 * Solves every corner's setup in place: its hardpoints become the setup state, the
 * authored ones are kept in `authored_hardpoints`, and `setup_change` gets the camber and
 * toe change at design. A setup the linkage cannot take is a problem at the setup's path.
 */
export function applySetup(problems: ProblemList, geometry: Geometry, configPath: string): void {
  geometry.corners.forEach((corner) => {
    const setup = corner.setup;
    if (!setup) return;
    const path = geometry.scope === 'axle' ? `axle_config.${corner.side}_setup` : configPath;
    const shims = setupShims(corner);
    if (!shims) return;
    const solved = solveCornerSetup(geometry, corner.hardpoints, corner, shims);
    if (typeof solved === 'string') {
      problems.add(setup.camber_shim && shims.shift !== 0 ? `${path}.camber_shim.setup_thickness` : `${path}.length_shims`, `the linkage cannot take this setup: ${solved}`);
      return;
    }
    const sigma = corner.side === 'left' ? 1 : -1;
    const before = camberAndToe(corner.hardpoints, sigma), after = camberAndToe(solved.points, sigma);
    corner.authored_hardpoints = corner.hardpoints;
    corner.hardpoints = solved.points;
    corner.setup_change = { camber: after.camber - before.camber, toe_angle: after.toe - before.toe };
  });
}

/** What a corner's setup changes (mm): the camber shim's T − T0 (0 below the threshold) and the length shims; null: nothing. */
export function setupShims(corner: CornerGeometry): SetupShims | null {
  const shim = corner.setup?.camber_shim;
  const raw = shim ? shim.setup_thickness - shim.design_thickness : 0;
  const shift = Math.abs(raw) < SAME_THICKNESS_MM ? 0 : raw;
  const trackrod = corner.setup?.length_shims?.trackrod ?? 0;
  const pushrod = corner.setup?.length_shims?.pushrod ?? 0;
  return shift === 0 && trackrod === 0 && pushrod === 0 ? null : { shift, trackrod, pushrod };
}

/** camber = atan2(−a_z, σ a_y), toe = atan2(a_x, σ a_y) in degrees (`suspension.md`), of the authored spin axis. */
export function camberAndToe(hp: Record<string, Point3>, sigma: number): { camber: number; toe: number } {
  const a = hp.axle_outboard.map((v, i) => v - hp.axle_inboard[i]);
  const l = Math.hypot(a[0], a[1], a[2]);
  const deg = 180 / Math.PI;
  return { camber: Math.atan2(-a[2] / l, (sigma * a[1]) / l) * deg, toe: Math.atan2(a[0] / l, (sigma * a[1]) / l) * deg };
}

/** The mm a setup adds: the camber shim's thickness change and the length shims. */
export interface SetupShims { shift: number; trackrod: number; pushrod: number }

/**
 * The setup's bodies and the points each carries, in the authored places: the upright's `ubj`
 * is its seat moved by −(T − T0)·n, the upper wishbone's `ubj` the ball joint itself.
 */
export interface SetupBodies {
  upright: Record<string, Point3>;
  upper: Record<string, Point3>;
  chassis: Record<string, Point3>;
  /** Rigid on the rocker (a pushrod-rocker layout), else null. */
  rocker: Record<string, Point3> | null;
  /** The body that carries `pushrod_outboard` (or `strut_bottom` without a rocker). */
  mount: 'upright' | 'upper' | 'chassis';
}

/** A solved setup: the setup state's points, and the bodies with their solved rotations (quaternions, w first). */
export interface SolvedSetup {
  points: Record<string, Point3>;
  bodies: SetupBodies;
  rotation: Record<'upright' | 'upper' | 'rocker', Float64Array | null>;
}

/** Which setup body carries each point `hp` names (setup-sensitivity.ts differentiates the same bodies). */
export function setupBodies(g: Geometry, hp: Record<string, Point3>, normal: Point3, shift: number): SetupBodies {
  const n = normal;
  const ubj = hp.upper_wishbone_outboard;
  const shifted: Point3 = [ubj[0] - shift * n[0], ubj[1] - shift * n[1], ubj[2] - shift * n[2]];
  const rocker = usesRocker(g.actuation.type);
  const m = g.actuation.mount;
  const mount = m === 'upright' ? 'upright' : m === 'upper_wishbone' ? 'upper' : 'chassis';
  const bodies: SetupBodies = {
    upright: { lbj: hp.lower_wishbone_outboard, ubj: shifted, axle_inboard: hp.axle_inboard, axle_outboard: hp.axle_outboard, trackrod_outboard: hp.trackrod_outboard },
    upper: { ubj },
    chassis: { lbj: hp.lower_wishbone_outboard, trackrod_inboard: hp.trackrod_inboard },
    rocker: null,
    mount,
  };
  const carried = rocker ? 'pushrod_outboard' : 'strut_bottom';
  if (Object.hasOwn(hp, carried)) bodies[mount][carried] = hp[carried];
  if (rocker) {
    bodies.rocker = {};
    for (const name of ROCKER_POINTS) if (Object.hasOwn(hp, name)) bodies.rocker[name] = hp[name];
  }
  return bodies;
}

/** The setup state of one double-wishbone corner from the points `hp`, or why it could not be solved. */
export function solveCornerSetup(g: Geometry, hp: Record<string, Point3>, corner: CornerGeometry, shims: SetupShims): SolvedSetup | string {
  const { shift, trackrod: trackrodShim, pushrod: pushrodShim } = shims;
  if (g.topology !== 'double_wishbone') {
    if (pushrodShim === 0 && trackrodShim !== 0 && (g.topology === 'macpherson' || g.topology === 'multi_link')) return 'a track-rod shim is modelled on a double_wishbone only so far';
    if (pushrodShim === 0 && trackrodShim === 0) return { points: hp, bodies: setupBodies(g, hp, [0, 0, 0], 0), rotation: { upright: null, upper: null, rocker: null } };
    return `setup shims are modelled on a double_wishbone only, not a ${g.topology}`;
  }
  const bodies = setupBodies(g, hp, corner.setup?.camber_shim?.shim_face_normal ?? [0, 0, 0], shift);
  const { upright: uprightPoints, upper: upperPoints, chassis: chassisPoints, mount } = bodies;
  const dist = (a: Point3, b: Point3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  const axis = (a: Point3, b: Point3) => ({ origin: a, direction: [b[0] - a[0], b[1] - a[1], b[2] - a[2]] as Point3 });
  const f = hp.upper_wishbone_inboard_front, r = hp.upper_wishbone_inboard_rear;
  const mates: Record<string, MateDoc> = {
    upper_hinge: { type: 'revolute', a: 'chassis.upper_axis', b: 'upper.upper_axis' },
    lower_ball: { type: 'ball', a: 'chassis.lbj', b: 'upright.lbj' },
    upper_ball: { type: 'ball', a: 'upper.ubj', b: 'upright.ubj' },
    trackrod: { type: 'distance', a: 'chassis.trackrod_inboard', b: 'upright.trackrod_outboard', value: dist(hp.trackrod_inboard, hp.trackrod_outboard) + trackrodShim },
  };
  const chassisAxes: Record<string, AxisDoc> = { upper_axis: axis(f, r) };
  const parts: Record<string, PartDoc> = {
    chassis: { fixed: true, pose: identity(), points: chassisPoints, axes: chassisAxes },
    upper: { pose: identity(), points: upperPoints, axes: { upper_axis: axis(f, r) } },
    upright: { pose: identity(), points: uprightPoints },
  };
  if (bodies.rocker) {
    parts.rocker = { pose: identity(), points: bodies.rocker, axes: { rocker_axis: axis(hp.rocker_axis_a, hp.rocker_axis_b) } };
    chassisAxes.rocker_axis = axis(hp.rocker_axis_a, hp.rocker_axis_b);
    mates.rocker_hinge = { type: 'revolute', a: 'chassis.rocker_axis', b: 'rocker.rocker_axis' };
    mates.pushrod = { type: 'distance', a: `${mount}.pushrod_outboard`, b: 'rocker.pushrod_inboard', value: dist(hp.pushrod_outboard, hp.pushrod_inboard) + pushrodShim };
  }
  const doc: AssemblyDoc = { format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' }, parts, mates, state: {}, held: [] };
  const model = buildModel(doc);
  const report = solve(model.system);
  if (!report.converged) return report.message ?? 'the setup does not close';
  const out: Record<string, Point3> = { ...hp };
  const poseOf = (part: string) => model.system.getPose(model.parts.get(part)!);
  const place = (part: string, local: Record<string, Point3>, rename: Record<string, string> = {}) => {
    const pose = poseOf(part);
    for (const [name, p] of Object.entries(local)) {
      const w = P.applyPoint(new Float64Array(3), pose, p);
      out[rename[name] ?? name] = [w[0], w[1], w[2]];
    }
  };
  const { lbj: _l, ubj: _u, ...uprightCarried } = uprightPoints;
  void _l; void _u;
  place('upright', uprightCarried);
  place('upper', upperPoints, { ubj: 'upper_wishbone_outboard' });
  if (bodies.rocker) place('rocker', bodies.rocker);
  const rotation = (part: string) => (model.parts.has(part) ? Float64Array.from(poseOf(part).subarray(3, 7)) : null);
  return { points: out, bodies, rotation: { upright: rotation('upright'), upper: rotation('upper'), rocker: rotation('rocker') } };
}

function identity(): PoseDoc {
  return { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
}
