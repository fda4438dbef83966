/**
 * The shapes a pose frame is drawn from (the scene's structure, the corners, the handles)
 * and what a plot or read-out shows of a metric: plain data, shared by the worker's
 * presenter (engine.ts, devices.ts, loads.ts, scene-structure.ts) and the page.
 */
import type { Vec3Tuple } from '../../../kernel/vec3.ts';

/** hardpoint: a chassis pickup (a geometry edit); pull, wheel, rack: moving points (pulls); anchor: a fixed part's point (picked, never dragged). */
export type HandleKind = 'hardpoint' | 'pull' | 'wheel' | 'rack' | 'anchor';

export interface HandleInfo {
  /** The point it stands on (`part.point`, a key of `points`). */
  ref: string;
  part: string;
  local: Vec3Tuple;
  kind: HandleKind;
  /** The hardpoint it edits (suspension geometry), as the assembly names it. */
  hardpoint?: string;
  label: string;
  corner?: number;
}

export interface SceneStructure {
  parts: { name: string; fixed: boolean; refs: string[] }[];
  rods: { id: string; a: string; b: string }[];
  /** Joints between two entities: drawn as a pin at `at`; a sliding one also as the bar from `at` to `to`. */
  joints: { id: string; type: string; at: string; to: string }[];
  handles: HandleInfo[];
  /** Suspension hardpoint names (for the table), in file order. */
  hardpoints: string[];
}

export interface CornerGeometry {
  side: string;
  wheelCenter: Vec3Tuple;
  /** Unit spin axis, inboard → outboard. */
  spin: Vec3Tuple;
  tireRadius: number;
  sectionWidth: number;
  contact: Vec3Tuple | null;
  steeringAxis: [Vec3Tuple, Vec3Tuple] | null;
  damper: [Vec3Tuple, Vec3Tuple] | null;
  svic: Vec3Tuple | null;
  fvic: Vec3Tuple | null;
  /** The steering response's screw axis (the virtual steering axis), when it is valid. */
  screwAxis: { point: Vec3Tuple; direction: Vec3Tuple; pitch: number | null } | null;
}

export interface PlotSpec {
  metric: string;
  label: string;
  unit: string;
}

/** A metric shown as a read-out row too: a plot spec with its decimals. */
export interface ReadoutSpec extends PlotSpec {
  digits: number;
}
