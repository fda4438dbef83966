/**
 * A compliant suspension's state under wheel loads (docs/compliance.md): the sweep's drivers
 * and targets hold, and every other coordinate settles where the bushings, compliant
 * links, springs, devices and the applied loads balance, by the one `equilibrium`
 * (Newton on the constraint manifold, load stepping; src/mechanics/equilibrium.ts).
 *
 * Each wheel's load is a force element of the dynamic model: a world force at a point of
 * the upright and a world moment. The point is placed, at each step's unloaded equilibrium
 * (`settlePlaced`; with no preload the rigid pose), at the contact centre (or the wheel
 * centre) and then carried by the upright while the suspension deflects; a camber or toe turn keeps it at the lowest point of the tyre, a
 * wind-up turn about the spin axis carries it with the wheel (a second-order difference).
 */
import * as P from '../../../kernel/pose';
import { BodyTorque, BushingForce, PointForce, PointToPointForce } from '../../../mates/forces';
import { buildDynamics, type DynamicsModel } from '../../mechanics/build';
import { equilibrium, type EquilibriumResult } from '../../mechanics/equilibrium';
import type { Vec3Tuple } from '../../../kernel/vec3';
import type { SuspensionModel } from '../build/model';
import { SweepLoads, type LoadCase, type LoadPoint, type StateLoads } from '../loads/loads';
import { CompliantTangent } from './tangent';

/** One wheel's applied load: N, N·mm (ISO 8855 vehicle axes), and where it acts. */
export interface AppliedLoad { force: Vec3Tuple; moment: Vec3Tuple; at: LoadPoint }

interface LoadSlot {
  corner: number;
  /** The application point in the upright's frame (written in place: the force block reads it). */
  local: Float64Array;
  force: Float64Array;
  moment: Float64Array;
  at: LoadPoint;
}

/** A settled state's outcome: `solved`, or `failed` with the residual and the element running away. */
export interface SettleResult {
  status: 'solved' | 'failed';
  equilibrium: EquilibriumResult;
  /** One line for a failed step: status, residual, running-away element; never numbers that look like an answer. */
  message?: string;
}

/** The balance tolerance's floor: 1 N (so 1e-7 N), for states with no applied load. */
const FORCE_SCALE = 1;

export class CompliantState {
  readonly dyn: DynamicsModel;
  readonly slots: LoadSlot[];
  /** The equilibrium's exact tangent, its stiffness kept from one state to the next (tangent.ts). */
  readonly tangent: CompliantTangent;
  private readonly report: SweepLoads;

  constructor(readonly sm: SuspensionModel) {
    this.dyn = buildDynamics(sm.model);
    this.slots = sm.corners.map((c, i) => {
      const slot: LoadSlot = { corner: i, local: Float64Array.from(c.wheelCenterLocal), force: new Float64Array(3), moment: new Float64Array(3), at: 'contact_patch' };
      this.dyn.forces.add(new PointForce(`load:${c.roles.side}`, c.upright, slot.local, slot.force, false, null));
      this.dyn.forces.add(new BodyTorque(`load:${c.roles.side}:moment`, c.upright, slot.moment, false, null));
      return slot;
    });
    this.report = new AppliedPointLoads(sm, {}, this);
    this.tangent = new CompliantTangent(this.dyn);
  }

  /** Set every wheel's load from a load case (a side not in it carries none). */
  setLoadCase(loads: LoadCase, resolve: (load: LoadCase[string]) => { force: Vec3Tuple; moment: Vec3Tuple }): void {
    this.sm.corners.forEach((c, i) => {
      const load = loads[c.roles.side] ?? loads.each;
      this.setLoad(i, load ? { ...resolve(load), at: load.at ?? 'contact_patch' } : null);
    });
  }

  setLoad(corner: number, load: AppliedLoad | null): void {
    this.tangent.begin();
    const s = this.slots[corner];
    s.force.set(load?.force ?? [0, 0, 0]);
    s.moment.set(load?.moment ?? [0, 0, 0]);
    s.at = load?.at ?? 'contact_patch';
  }

  /** Each load's point at the corner's contact (or wheel) centre at the current pose, in the upright's frame. */
  placeLoads(): void {
    this.tangent.begin();
    const system = this.sm.model.system;
    for (const s of this.slots) {
      const c = this.sm.corners[s.corner];
      if (s.at === 'wheel_center') { s.local.set(c.wheelCenterLocal); continue; }
      const world = this.report.contactCentre(s.corner);
      P.applyInversePoint(s.local, system.state, world, system.variables[c.upright].offset);
    }
  }

  /** Settle at the current drivers from the current pose (the rigid one, where `place` puts the loads' points). */
  settle(place = true): SettleResult {
    if (place) this.placeLoads();
    // the balance is judged against the applied loads even where the elements carry them all (the total force then vanishes)
    let applied = FORCE_SCALE;
    for (const slot of this.slots) applied = Math.max(applied, Math.hypot(slot.force[0], slot.force[1], slot.force[2]));
    this.tangent.begin();
    const eq = equilibrium(this.dyn, { forceScale: applied, reduce: (scale) => this.tangent.reduce(scale), report: false });
    if (eq.status === 'solved') {
      // a start already balanced (no Newton step) is kept as it is: polishing pays where Newton moved
      if (eq.newtonIterations > 0) this.tangent.polish();
      return { status: 'solved', equilibrium: eq };
    }
    return { status: 'failed', equilibrium: eq, message: this.failure(eq) };
  }

  /**
   * A sweep step's settle: each contact-patch load placed at the step's unloaded equilibrium
   * (with no preload, the rigid kinematics at the step's drivers; where `kinemate kc` and the
   * live model place theirs), then the loads settled from there. The kinematic solve's pose
   * is no such place: with bushings its rows leave the arms' free directions, so it depends on
   * where the solve started. `atUnloaded` runs at the unloaded state, the loads placed and not
   * yet applied. With no contact-patch load (none, or all at the wheel centre, which needs no
   * pose) this is `settle()`.
   */
  settlePlaced(atUnloaded?: () => void): SettleResult {
    const placed = this.slots.filter((s) => s.at === 'contact_patch' && (s.force.some((x) => x !== 0) || s.moment.some((x) => x !== 0)));
    if (!placed.length) return this.settle();
    const kept = this.slots.map((s) => [Float64Array.from(s.force), Float64Array.from(s.moment)]);
    for (const s of this.slots) { s.force.fill(0); s.moment.fill(0); }
    let unloaded: SettleResult;
    try {
      unloaded = this.settle();
      if (unloaded.status === 'solved') { this.placeLoads(); atUnloaded?.(); }
    } finally {
      this.slots.forEach((s, i) => { s.force.set(kept[i][0]); s.moment.set(kept[i][1]); });
    }
    if (unloaded.status !== 'solved') return { ...unloaded, message: `with no wheel load, where the loads are placed: ${unloaded.message}` };
    return this.settle(false);
  }

  /** World point where corner i's load acts now. */
  loadPointNow(i: number): Vec3Tuple {
    const s = this.slots[i], system = this.sm.model.system;
    const x = P.applyPoint(new Float64Array(3), system.getPose(this.sm.corners[i].upright), s.local);
    return [x[0], x[1], x[2]];
  }

  /**
   * Where corner i's unit loads (the K&C coefficients') act: the contact centre of the current
   * pose (the wheel centre for a load at the wheel centre). A function of the state, so of the
   * points (coefficient-rates.ts); at design it is where a load is placed, and at a settled
   * zero-load state where `kinemate kc`'s events place theirs.
   */
  unitLoadPoint(i: number): Vec3Tuple {
    return this.slots[i].at === 'wheel_center' ? this.loadPointNow(i) : this.report.contactCentre(i);
  }

  /** Link forces, joints, holds and bushings at the settled state (`StateLoads`, the loads as applied). */
  loads(): StateLoads {
    return this.report.evaluate();
  }

  /** The element deflected furthest (bushing translation, link stretch) and the largest residual, for a failure. */
  private failure(eq: EquilibriumResult): string {
    let worst = '', size = -1;
    for (const e of this.dyn.elements) {
      const b = e.block;
      let d = -1;
      if (b instanceof BushingForce) d = Math.hypot(b.last.translation[0], b.last.translation[1], b.last.translation[2]);
      else if (b instanceof PointToPointForce && this.sm.roles.compliance?.links[e.id]) d = Math.abs(b.last.length - ((this.sm.model.doc.forces?.[e.id] as { length?: number })?.length ?? b.last.length));
      if (d > size) { size = d; worst = e.id; }
    }
    let residual = '', rsize = -1;
    for (const [name, r] of Object.entries(eq.residualForce)) {
      const m = typeof r === 'number' ? Math.abs(r) : Math.hypot(...r.force);
      if (m > rsize) { rsize = m; residual = name; }
    }
    return `equilibrium not found (${eq.message ?? 'failed'}); the largest unbalanced force is on ${residual || 'no coordinate'}${worst ? `, and ${worst} is the element running away` : ''}`;
  }
}

/** The loads report with each wheel's load at the point the force element applies it. */
class AppliedPointLoads extends SweepLoads {
  constructor(sm: SuspensionModel, loadCase: LoadCase, private readonly state: CompliantState) {
    super(sm, loadCase);
  }
  override loadPoint(i: number, at: LoadPoint): Vec3Tuple {
    return this.state ? this.state.loadPointNow(i) : super.loadPoint(i, at);
  }
  override get activeLoads(): { corner: number; side: string; force: Vec3Tuple; moment: Vec3Tuple; at: LoadPoint }[] {
    return this.state.slots.map((s) => ({ corner: s.corner, side: this.sm.corners[s.corner].roles.side, force: [s.force[0], s.force[1], s.force[2]], moment: [s.moment[0], s.moment[1], s.moment[2]], at: s.at }));
  }
}
