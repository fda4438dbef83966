/**
 * From an assembly document to its dynamic model: the kinematic model (src/model/build.ts)
 * plus every part's mass, gravity and the file's force elements as force blocks on the same
 * System. Units convert here and nowhere else: kg → t and kg·mm² → t·mm² (÷ 1000), so with
 * mm, s and N the set is consistent; rotational stiffness and damping per file angle unit
 * become per radian; force-element numbers in N, N/mm, N·s/mm, N·mm are used as written.
 *
 * This is the one builder statics, equilibrium, modes and the time integrator share.
 */
import { ForceSet, type ForceBlock } from '../../kernel/forces';
import { GravityBlock, spatialMass, type RigidMass } from '../../kernel/mass';
import type { System } from '../../kernel/system';
import {
  BodyTorque, BushingForce, CoordinateSpringForce, LinearLaw, PointForce, PointToPointForce, SineLaw, TableLaw, TyreForce, type Law,
} from '../../mates/forces';
import { CoordinateFrictionForce, DragForce } from '../../mates/resistance';
import { DEFAULT_AIR_DENSITY, DEFAULT_GRAVITY, splitReference, type AssemblyDoc, type ForceDoc, type ForceType, type ScaleDoc, type Vec3Doc } from '../assembly/types';
import { buildModel, ModelError, type Model } from '../model/build';

export interface DynamicBody {
  part: string;
  variable: number;
  /** In the internal set: t, mm, t·mm². */
  body: RigidMass;
  /** 6×6 body-frame mass matrix in (ω, v) order (kernel/mass.ts spatialMass). */
  M: Float64Array;
}

export interface ForceElement {
  id: string;
  type: ForceType;
  block: ForceBlock;
  /** Index of the block in `forces`. */
  index: number;
}

export interface DynamicsModel {
  readonly model: Model;
  readonly system: System;
  /** Every force block: gravity on each massive moving part, then the file's elements in file order. */
  readonly forces: ForceSet;
  /** Parts with mass (fixed ones included; their rows drop out of every assembly). */
  readonly bodies: readonly DynamicBody[];
  readonly elements: readonly ForceElement[];
  /** mm/s². */
  readonly gravity: Float64Array;
}

/** Build (or extend a built kinematic model into) the dynamic model of a checked document. */
export function buildDynamics(source: AssemblyDoc | Model): DynamicsModel {
  const model = 'system' in source ? (source as Model) : buildModel(source as AssemblyDoc);
  const { doc, system } = model;
  const forces = new ForceSet(system);
  const g = doc.gravity ?? DEFAULT_GRAVITY;
  const gravity = Float64Array.of(g[0], g[1], g[2]);
  const bodies: DynamicBody[] = [];
  for (const [part, partDoc] of Object.entries(doc.parts)) {
    if (!partDoc.mass) continue;
    const variable = model.parts.get(part)!;
    const m = partDoc.mass;
    const body: RigidMass = {
      mass: m.mass / 1000,
      centre: Float64Array.from(m.centre),
      inertia: Float64Array.from(m.inertia.flat().map((x) => x / 1000)),
    };
    bodies.push({ part, variable, body, M: spatialMass(new Float64Array(36), body) });
    if (!system.variables[variable].fixed) forces.add(new GravityBlock(`gravity:${part}`, variable, body, gravity));
  }
  const elements: ForceElement[] = [];
  for (const [id, element] of Object.entries(doc.forces ?? {})) {
    const block = forceBlockOf(model, id, element);
    forces.add(block);
    elements.push({ id, type: element.type, block, index: forces.blocks.length - 1 });
  }
  return { model, system, forces, bodies, elements, gravity };
}

/** A part's pose variable and an entity's local data. */
function pointOf(model: Model, ref: string): { variable: number; point: Vec3Doc } {
  const r = splitReference(ref)!;
  return { variable: model.parts.get(r.owner)!, point: model.doc.parts[r.owner].points![r.name] };
}

/** A time scale; a sine's phase is in degrees (dynamics.md) whatever the file's angle unit. */
function scaleOf(scale: ScaleDoc | undefined): Law | null {
  if (!scale) return null;
  if ('table' in scale) return new TableLaw(scale.table, false);
  const s = scale.sine;
  return new SineLaw(s.amplitude, s.frequency, ((s.phase ?? 0) * Math.PI) / 180, s.offset ?? 0);
}

/** The force block of one file element (the document is valid, so references resolve). */
export function forceBlockOf(model: Model, id: string, element: ForceDoc): ForceBlock {
  const af = model.angleFactor;
  switch (element.type) {
    case 'spring':
    case 'damper':
    case 'springdamper': {
      const a = pointOf(model, element.a), b = pointOf(model, element.b);
      let spring: Law | null = null, damper: Law | null = null;
      if (element.type !== 'damper') {
        spring = element.curve ? new TableLaw(element.curve, true) : new LinearLaw(element.stiffness!, element.length!, element.preload ?? 0);
      }
      if (element.type === 'damper') damper = element.curve ? new TableLaw(element.curve, true) : new LinearLaw(element.damping!);
      if (element.type === 'springdamper') damper = element.damping_curve ? new TableLaw(element.damping_curve, true) : new LinearLaw(element.damping!);
      return new PointToPointForce(id, a.variable, a.point, b.variable, b.point, spring, damper);
    }
    case 'bushing': {
      const frame = (ref: string) => {
        const r = splitReference(ref)!;
        const f = model.doc.parts[r.owner].frames![r.name];
        return { variable: model.parts.get(r.owner)!, origin: f.origin, rotation: f.rotation };
      };
      const a = frame(element.a), b = frame(element.b);
      const perRadian = (v: Vec3Doc | undefined) => (v ?? [0, 0, 0]).map((x) => x / af);
      return new BushingForce(id, a.variable, a.origin, a.rotation, b.variable, b.origin, b.rotation,
        element.stiffness, perRadian(element.rotational_stiffness), element.damping ?? [0, 0, 0], perRadian(element.rotational_damping));
    }
    case 'coordinate_spring': {
      const info = model.coordinates.get(element.coordinate);
      if (!info) throw new ModelError(`forces.${id}.coordinate`, `no coordinate "${element.coordinate}"`);
      const k = info.kind === 'angle' ? af : 1;
      return new CoordinateSpringForce(id, info.variable, element.stiffness / k, element.free * k, (element.damping ?? 0) / k);
    }
    case 'force': {
      const at = pointOf(model, element.at);
      return new PointForce(id, at.variable, at.point, element.vector, element.frame === 'part', scaleOf(element.scale));
    }
    case 'torque':
      return new BodyTorque(id, model.parts.get(element.part)!, element.vector, element.frame === 'part', scaleOf(element.scale));
    case 'drag': {
      const at = pointOf(model, element.at);
      // ½ ρ C_d A with ρ in t/mm³ (kg/m³ × 1e-12) and A in mm²: N per (mm/s)²
      const coefficient = 0.5 * (element.density ?? DEFAULT_AIR_DENSITY) * 1e-12 * element.cd * element.area;
      return new DragForce(id, at.variable, at.point, coefficient);
    }
    case 'coordinate_friction': {
      const info = model.coordinates.get(element.coordinate);
      if (!info) throw new ModelError(`forces.${id}.coordinate`, `no coordinate "${element.coordinate}"`);
      const k = info.kind === 'angle' ? af : 1;
      // N·mm per radian is N·mm; the regularising rate converts to radians per second
      return new CoordinateFrictionForce(id, info.variable, element.force, (element.regularization ?? 1) * k);
    }
    case 'tyre': {
      const c = pointOf(model, element.centre);
      const r = splitReference(element.axis)!;
      const axis = model.doc.parts[r.owner].axes![r.name];
      const road = element.road ? pointOf(model, element.road) : null;
      return new TyreForce(id, c.variable, c.point, axis.direction, element.radius, element.stiffness, element.damping ?? 0, element.ground ?? 0,
        road && { body: road.variable, point: road.point });
    }
  }
}
