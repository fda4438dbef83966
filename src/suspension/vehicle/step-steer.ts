/**
 * A step steer (docs/vehicle-dynamics.md): the car at speed on a flat road, the steering
 * rack driven from its travel at rest by `rack` mm over a ramp, the tyres slipping
 * (mates/tyres/slip-force.ts SlipTyreForce with the vehicle's tyre models: linear or Magic
 * Formula, as the steady-state analysis uses them). The car stays near the origin and the
 * road moves under it: one `road` part on a slider along x from the fixed `ground`, driven
 * at −V (a frame moving at constant velocity is inertial: nothing else changes). The
 * wheels spin on their bearings, started rolling at V over their loaded radius; nothing
 * holds the body's x, y and yaw but the tyres.
 */
import type { AssemblyDoc, ForceDoc as ForceDocType, MateDoc } from '../../assembly/types';
import { validateAssembly } from '../../assembly/load';
import type { DynamicsModel, ForceElement } from '../../mechanics/build';
import { SlipTyreForce } from '../../../mates/tyres';
import { rotationMatrix } from '../../../kernel/dual';
import { STEERING_SPRING, rackCoordinate, type VehicleModel } from './assembly';
import { VehicleInputError } from './errors';
import type { SteerStep } from './road';
import { steadyTyres } from './steady-state';

/** s: how long the road's motion is written for (its table's last row). */
const HORIZON = 1000;

/**
 * The run's assembly on the moving road (a step steer, a brake or a drive): ground, the road
 * at −V, the bearings free and spinning; with a step steer the rack's motion, else the rack
 * held where it is at rest.
 */
export function steerAssembly(m: VehicleModel, steer: SteerStep | null, speedKmh = steer?.speed_kmh ?? 0): { doc: AssemblyDoc; rack: string | null } {
  const rack = rackCoordinate(m.doc);
  if (!rack && steer) throw new VehicleInputError('steer', 'the front axle has no steering rack to step');
  const spring = m.doc.forces?.[STEERING_SPRING];
  // with a steering stiffness the step moves the held end of the steering, not the rack itself
  const input = steer && rack && spring?.type === 'coordinate_spring' ? steeringInput(m.doc, rack, spring.stiffness) : null;
  const base = input?.doc ?? m.doc;
  const V = (speedKmh / 3.6) * 1000; // mm/s
  const motions: Record<string, unknown> = {};
  if (steer && rack) {
    const info = m.dyn.model.coordinates.get(rack)!;
    const unit = info.kind === 'angle' ? m.dyn.model.angleFactor : 1;
    const x0 = input ? 0 : m.dyn.system.getScalar(info.variable) / unit, x1 = x0 + steer.rack;
    const rows: [number, number][] = steer.start > 0 ? [[0, x0], [steer.start, x0]] : [[0, x0]];
    rows.push([steer.start + steer.ramp, x1], [steer.start + steer.ramp + HORIZON, x1]);
    motions.steer = { coordinate: input?.coordinate ?? rack, table: rows };
  }
  const at = [0, 0, m.road];
  const surface: Record<string, number[]> = {};
  m.wheels.forEach((w, i) => { const c = m.contacts[i].last.contact; surface[`${w.corner}_surface`] = [c[0], c[1], m.road]; });
  // every part at rest, the wheels rolling on the road moving at −V: ω = V / r_loaded about world y
  const velocities: Record<string, { linear: number[]; angular: number[] }> = {};
  const R = new Float64Array(9), af = m.dyn.model.angleFactor;
  // (the road, driven, is left to its motion)
  for (const [name, id] of m.dyn.model.parts) if (!m.dyn.system.variables[id].fixed) velocities[`${name}.pose`] = { linear: [0, 0, 0], angular: [0, 0, 0] };
  m.wheels.forEach((w, i) => {
    const v = m.dyn.system.variables[m.dyn.model.parts.get(w.wheel)!], st = m.dyn.system.state;
    rotationMatrix(R, st, v.offset + 3);
    const o = [st[v.offset], st[v.offset + 1], st[v.offset + 2]];
    const c = [0, 1, 2].map((k) => R[3 * k] * w.centre[0] + R[3 * k + 1] * w.centre[1] + R[3 * k + 2] * w.centre[2] + o[k]);
    // about the spin axis (as the bearing allows), its y part V / r_loaded
    const a = [0, 1, 2].map((k) => R[3 * k] * w.axis[0] + R[3 * k + 1] * w.axis[1] + R[3 * k + 2] * w.axis[2]);
    const k = V / (w.radius - m.contacts[i].last.penetration) / a[1];
    const om = a.map((x) => x * k), r = [o[0] - c[0], o[1] - c[1], o[2] - c[2]];
    // the origin's velocity ω × (o − c): the centre stands still
    velocities[`${w.wheel}.pose`] = { linear: [om[1] * r[2] - om[2] * r[1], om[2] * r[0] - om[0] * r[2], om[0] * r[1] - om[1] * r[0]], angular: om.map((x) => x / af) };
  });
  const parts: Record<string, unknown> = {
    ...base.parts,
    ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, axes: { road_guide: { origin: at, direction: [1, 0, 0] } } },
    road: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, points: surface, axes: { guide: { origin: at, direction: [1, 0, 0] } } },
  };
  const doc = validateAssembly({
    ...base,
    name: `${base.name} ${steer ? 'step steer' : 'on a moving road'}`,
    parts,
    mates: { ...base.mates, road_slide: { type: 'slider', a: 'ground.road_guide', b: 'road.guide' } as MateDoc },
    held: (base.held ?? []).filter((h) => !(steer && h === rack) && !h.endsWith('_bearing.angle')),
    motions: {
      // from t = −1 s: a table's rate at its first row is 0, and the road moves from the start
      road: { coordinate: 'road_slide.slide', table: [[-1, V], [HORIZON, -V * HORIZON]] },
      ...motions,
    },
    velocities,
  } as AssemblyDoc);
  return { doc, rack };
}

/** The length (mm) of the spring that stands for the steering in a step steer (any length: it acts along the rack). */
const STEERING_LENGTH = 100;

/**
 * The steering's held end as a part of its own for a step steer with a steering stiffness: a
 * massless part on a slider of the rack's own axis on the body (driven by the step), and the
 * steering spring, which holds the rack about the held travel (its free travel the design's:
 * assembly.ts steeringSpring), as a spring between the two along that axis: its tension is
 * k (x_rack − x_input) whichever way the axis points, so the step's work and the spring's
 * energy are in the run's budget as any motion's and spring's.
 */
function steeringInput(doc: AssemblyDoc, rack: string, stiffness: number): { doc: AssemblyDoc; coordinate: string } {
  const mateId = rack.slice(0, rack.indexOf('.'));
  const mate = doc.mates[mateId] as MateDoc & { a: string; b: string };
  const [rackPart, rackAxis] = mate.b.split('.');
  const part = doc.parts[rackPart], axis = part.axes![rackAxis];
  const d = axis.direction, l = Math.hypot(d[0], d[1], d[2]);
  const end = axis.origin.map((x, i) => x + (STEERING_LENGTH * d[i]) / l);
  const input = `${rackPart}_steering_input`;
  const forces = { ...doc.forces };
  delete forces[STEERING_SPRING];
  forces[STEERING_SPRING] = { type: 'spring', a: `${rackPart}.steering_end`, b: `${input}.steering_end`, stiffness, length: STEERING_LENGTH } as ForceDocType;
  return {
    doc: {
      ...doc,
      parts: {
        ...doc.parts,
        [rackPart]: { ...part, points: { ...part.points, steering_end: end } },
        [input]: { pose: part.pose, points: { steering_end: axis.origin }, axes: { [rackAxis]: axis } },
      },
      mates: { ...doc.mates, [`${input}_slide`]: { ...mate, b: `${input}.${rackAxis}` } as MateDoc },
      forces,
    } as AssemblyDoc,
    coordinate: `${input}_slide.slide`,
  };
}

/** The slipping tyres on the built run: a SlipTyreForce per wheel on the moving road, listed as elements (reports, energy per element). */
export function addSlipTyres(m: VehicleModel, dyn: DynamicsModel): { dyn: DynamicsModel; tyres: SlipTyreForce[] } {
  const models = steadyTyres(m);
  const road = dyn.model.parts.get('road')!;
  const elements: ForceElement[] = [...dyn.elements];
  const tyres = m.wheels.map((w, i) => {
    // the tyre's axis points to its left (ISO-W y), whichever way the file's spin axis points
    const axis = w.axis[1] >= 0 ? w.axis : w.axis.map((x) => -x);
    const t = new SlipTyreForce(`${w.corner}_tyre`, dyn.model.parts.get(w.wheel)!, w.centre, axis, models[i], {
      radius: w.radius, stiffness: w.tyre.stiffness, damping: w.tyre.damping, road: { body: road, point: surfaceOf(dyn, w.corner) },
    });
    dyn.forces.add(t);
    elements.push({ id: `${w.corner}_tyre`, type: 'tyre', block: t, index: dyn.forces.blocks.length - 1 });
    return t;
  });
  return { dyn: { ...dyn, elements }, tyres };
}

function surfaceOf(dyn: DynamicsModel, corner: string): readonly number[] {
  return dyn.model.doc.parts.road.points![`${corner}_surface`];
}
