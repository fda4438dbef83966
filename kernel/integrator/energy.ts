/**
 * The energy budget of an integration, kept beside the stepping (an observer of each
 * accepted step): the kinetic energy of the bodies, each force block's stored energy, the
 * energy dampers dissipated (midpoint velocity) and the work of applied loads (trapezoid) and
 * of time drivers (mean multiplier times the change of the target).
 */
import { GravityBlock, kineticEnergy } from '../mass';
import type { ForceSet } from '../forces';
import type { TimeDriver } from '../motion';
import type { System } from '../system';

/** The energy budget (the caller's energy unit: t·mm²/s² = mJ for src/dynamics). */
export interface EnergyBudget {
  kinetic: number;
  /** Gravity's potential. */
  potential: number;
  /** Every other element's stored energy. */
  elastic: number;
  /** ∫ damper power dt since start. */
  dissipated: number;
  /** ∫ power of applied loads and time drivers dt since start. */
  external: number;
  /** kinetic + potential + elastic + dissipated − external: constant up to the numerical dissipation. */
  total: number;
}

/** A body's mass block and its first tangent slot (−1: fixed). */
export interface MassSlot { M: Float64Array; slot: number }

export class EnergyAccount {
  /** Accumulated energies since start (dissipated per block, external per block and per driver). */
  readonly blockDissipated: Float64Array;
  readonly blockExternal: Float64Array;
  readonly driverWork: Float64Array;
  private readonly externalBlocks: Int32Array;
  private readonly dissipativeBlocks: Int32Array;
  /**
   * Each dissipative block's slots and offsets, the set's as the account is made (as its block
   * lists): forces.slotsOf and offsetsOf check the set's structure at each call, and that check
   * (ForceSet.refresh), not inlined, was compiled on its own in the bench's timed rounds.
   */
  private readonly dissipativeSlots: Int32Array[];
  private readonly dissipativeOffsets: Int32Array[];
  private readonly localV: Float64Array;
  private readonly localQ: Float64Array;
  private readonly vMid: Float64Array;
  /** The powers at the last step's end and at the one before (swapped at each step, not copied). */
  private externalPower: Float64Array;
  private driverPower: Float64Array;
  private prevExternal: Float64Array;
  private prevDriver: Float64Array;
  private readonly driverLambda: Float64Array;
  private readonly driverTarget: Float64Array;

  /** `driverRow`: each driver's row in λ. */
  constructor(
    private readonly system: System,
    private readonly forces: ForceSet,
    private readonly masses: readonly MassSlot[],
    private readonly drivers: readonly TimeDriver[],
    private readonly driverRow: Int32Array,
    size: number,
  ) {
    let maxBlockDim = 1;
    const ext: number[] = [], dis: number[] = [];
    forces.blocks.forEach((blk, i) => {
      maxBlockDim = Math.max(maxBlockDim, forces.slotsOf(i).length);
      if (blk.dissipation) dis.push(i);
      else if (!blk.potential) ext.push(i);
    });
    this.externalBlocks = Int32Array.from(ext);
    this.dissipativeBlocks = Int32Array.from(dis);
    this.dissipativeSlots = dis.map((i) => forces.slotsOf(i)); this.dissipativeOffsets = dis.map((i) => forces.offsetsOf(i));
    this.localV = new Float64Array(maxBlockDim);
    this.localQ = new Float64Array(maxBlockDim);
    this.vMid = new Float64Array(size);
    const blocks = forces.blocks.length;
    this.blockDissipated = new Float64Array(blocks);
    this.blockExternal = new Float64Array(blocks);
    this.externalPower = new Float64Array(blocks);
    this.prevExternal = new Float64Array(blocks);
    this.driverWork = new Float64Array(drivers.length);
    this.driverPower = new Float64Array(drivers.length);
    this.prevDriver = new Float64Array(drivers.length);
    this.driverLambda = new Float64Array(drivers.length);
    this.driverTarget = new Float64Array(drivers.length);
  }

  /** Start the account at time t (velocities v, multipliers λ): nothing accumulated, the powers there. */
  reset(t: number, v: Float64Array, lambda: Float64Array): void {
    this.blockDissipated.fill(0); this.blockExternal.fill(0); this.driverWork.fill(0);
    this.powers(t, v, lambda, this.externalPower, this.driverPower);
    this.drivers.forEach((d, k) => { this.driverLambda[k] = lambda[this.driverRow[k]]; this.driverTarget[k] = d.target(); });
  }

  /** Accumulate an accepted step of size h that ended at time t with v, λ (vStart: v at its start). */
  afterStep(h: number, t: number, vStart: Float64Array, v: Float64Array, lambda: Float64Array): void {
    const { forces, vMid } = this;
    for (let i = 0; i < vMid.length; i++) vMid[i] = 0.5 * (v[i] + vStart[i]);
    for (let e = 0; e < this.dissipativeBlocks.length; e++) {
      const i = this.dissipativeBlocks[e];
      const slots = this.dissipativeSlots[e], lv = this.localV;
      for (let k = 0; k < slots.length; k++) lv[k] = slots[k] < 0 ? 0 : vMid[slots[k]];
      this.blockDissipated[i] += h * forces.blocks[i].dissipation!(this.system.state, this.dissipativeOffsets[e], lv, t);
    }
    const external = this.prevExternal, driver = this.prevDriver;
    this.prevExternal = this.externalPower; this.prevDriver = this.driverPower;
    this.externalPower = external; this.driverPower = driver;
    this.powers(t, v, lambda, this.externalPower, this.driverPower);
    for (let e = 0; e < this.externalBlocks.length; e++) {
      const i = this.externalBlocks[e];
      this.blockExternal[i] += 0.5 * h * (this.prevExternal[i] + this.externalPower[i]);
    }
    // a driver's work: mean λ times the change of its target (exact for a table's kinks): −scale·∫λ f' dt
    for (let k = 0; k < this.drivers.length; k++) {
      const d = this.drivers[k], lam = lambda[this.driverRow[k]], f = d.target();
      this.driverWork[k] -= 0.5 * (this.driverLambda[k] + lam) * d.scale * (f - this.driverTarget[k]);
      this.driverLambda[k] = lam; this.driverTarget[k] = f;
    }
  }

  /**
   * Power of every external block and time driver at the current state. Short (the blocks' loop
   * in a helper, run only where there are any), so that afterStep inlines it with the drivers'
   * rates: on its own it was compiled ~step 900 of the whole car (docs/vehicle-dynamics.md, Session 18).
   */
  private powers(t: number, v: Float64Array, lambda: Float64Array, blockPower: Float64Array, driverPower: Float64Array): void {
    if (this.externalBlocks.length > 0) this.blockPowers(t, v, blockPower);
    // a driver's constraint force −Φ_qᵀλ does power −λ Φ_q v = λ Φ_t
    for (let k = 0; k < this.drivers.length; k++) driverPower[k] = lambda[this.driverRow[k]] * this.drivers[k].rate();
  }

  /** Power of every external block at the current state. */
  private blockPowers(t: number, v: Float64Array, blockPower: Float64Array): void {
    const forces = this.forces;
    for (let e = 0; e < this.externalBlocks.length; e++) {
      const i = this.externalBlocks[e];
      const slots = forces.slotsOf(i), lv = this.localV;
      for (let k = 0; k < slots.length; k++) lv[k] = slots[k] < 0 ? 0 : v[slots[k]];
      forces.evaluateBlock(i, lv, t, this.localQ);
      let p = 0;
      for (let k = 0; k < slots.length; k++) p += this.localQ[k] * lv[k];
      blockPower[i] = p;
    }
  }

  /** Kinetic energy of every body at velocities v. */
  kinetic(v: Float64Array): number {
    let e = 0;
    for (const { M, slot } of this.masses) if (slot >= 0) e += kineticEnergy(M, v, slot);
    return e;
  }

  /** Stored energy of force block i at the current state and time t. */
  blockPotential(i: number, t: number): number {
    const blk = this.forces.blocks[i];
    return blk.potential ? blk.potential(this.system.state, this.forces.offsetsOf(i), t) : 0;
  }

  /** The energy budget at the current state, time t and velocities v. */
  budget(t: number, v: Float64Array): EnergyBudget {
    let potential = 0, elastic = 0, dissipated = 0, external = 0;
    this.forces.blocks.forEach((blk, i) => {
      const p = this.blockPotential(i, t);
      if (blk instanceof GravityBlock) potential += p; else elastic += p;
      dissipated += this.blockDissipated[i];
      external += this.blockExternal[i];
    });
    for (let k = 0; k < this.drivers.length; k++) external += this.driverWork[k];
    const kinetic = this.kinetic(v);
    return { kinetic, potential, elastic, dissipated, external, total: kinetic + potential + elastic + dissipated - external };
  }
}
