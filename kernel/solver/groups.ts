/**
 * Variable groups: the independent sub-systems a solve works on, their workspaces, and how
 * their rows are assembled into dense blocks.
 */
import { ScalarTargetBlock, type ResidualBlock, type System } from '../system';
import type { Linear } from './linear';

export interface Group {
  vars: number[];
  /** First scaled-step column of each var in this group (indexed like vars). */
  cols: number[];
  n: number;
  blocks: number[];
  limited: number[];
  rowsMax: number;
  maxLocalDim: number;
  ws: Workspace | null;
}

/** A group's solver state: its linear algebra, built on first use (per system version). */
export interface Workspace {
  dense: Linear | null;
  sparse: Linear | null;
  /** State before a Newton step, and before a drag step (a drag's restoration runs Newton inside it). */
  saved: Float64Array;
  savedDrag: Float64Array;
  /**
   * The last state at which the group was found to hold: the state slots its blocks read
   * (free and fixed variables), their values, and the largest row there. Only for groups of
   * pure constraint blocks, whose rows are functions of those values alone (drivers carry
   * targets that change in place, so their groups are always evaluated).
   */
  verifiable: boolean;
  verifiedSlots: Int32Array | null;
  verified: Float64Array;
  verifiedMax: number;
  verifiedL: number;
}

interface Structure {
  version: number;
  groups: Group[];
  groupOfVar: Int32Array;
  /** Blocks that read no free variable: checked, never solvable. */
  frozenBlocks: number[];
  /** Every group's column of each var (−1: fixed), built on first use: the groups share no var, so one map serves them all. */
  colMap: Int32Array | null;
}

const structures = new WeakMap<System, Structure>();
/** The structure each group belongs to (for the map its groups share). */
const structureOf = new WeakMap<Group, Structure>();

/** Independent groups of free variables linked by enabled hard blocks (union-find). */
export function groupsOf(system: System): Structure {
  const cached = structures.get(system);
  if (cached && cached.version === system.version) return cached;
  const nv = system.variables.length;
  const parent = new Int32Array(nv);
  for (let i = 0; i < nv; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; }
    return i;
  };
  const frozenBlocks: number[] = [];
  for (let b = 0; b < system.blockCount; b++) {
    if (!system.blockEnabled(b)) continue;
    const blk = system.block(b);
    let first = -1;
    for (const v of blk.vars) {
      if (system.variables[v].fixed) continue;
      if (first < 0) first = v;
      else parent[find(v)] = find(first);
    }
    if (first < 0) frozenBlocks.push(b);
  }
  const groupOfVar = new Int32Array(nv).fill(-1);
  const groups: Group[] = [];
  const rootGroup = new Map<number, number>();
  for (let v = 0; v < nv; v++) {
    const variable = system.variables[v];
    if (variable.fixed) continue;
    const r = find(v);
    let gi = rootGroup.get(r);
    if (gi === undefined) {
      gi = groups.length;
      rootGroup.set(r, gi);
      groups.push({ vars: [], cols: [], n: 0, blocks: [], limited: [], rowsMax: 0, maxLocalDim: 0, ws: null });
    }
    const g = groups[gi];
    g.vars.push(v);
    g.cols.push(g.n);
    g.n += variable.dim;
    if (variable.limits) g.limited.push(v);
    groupOfVar[v] = gi;
  }
  for (let b = 0; b < system.blockCount; b++) {
    if (!system.blockEnabled(b)) continue;
    const blk = system.block(b);
    const v = blk.vars.find((x) => !system.variables[x].fixed);
    if (v === undefined) continue;
    const g = groups[groupOfVar[v]];
    g.blocks.push(b);
    g.rowsMax += blk.rows;
    g.maxLocalDim = Math.max(g.maxLocalDim, system.blockLocalDim(b) * blk.rows);
  }
  for (const g of groups) g.rowsMax += g.limited.length;
  const s: Structure = { version: system.version, groups, groupOfVar, frozenBlocks, colMap: null };
  structures.set(system, s);
  for (const g of groups) structureOf.set(g, s);
  return s;
}

export function workspace(g: Group, system: System): Workspace {
  return g.ws ?? newWorkspace(g, system);
}

/**
 * A group's first workspace. Out of workspace, which every solve of the group runs: V8
 * inlines workspace into solve, and this part with it when it was inline (once a
 * model, so it has feedback: its loops and allocations in the compile of a function run
 * once a drive step, a compile that lands in the drives fourbar_drive_step_us times;
 * docs/solver-warm-up.md, session 14). A call this rare is not inlined.
 */
function newWorkspace(g: Group, system: System): Workspace {
  let stateSize = 0;
  for (const v of g.vars) stateSize += system.variables[v].kind === 'pose' ? 7 : 1;
  let verifiable = true;
  for (const b of g.blocks) if (system.block(b).kind !== 'constraint') verifiable = false;
  g.ws = {
    dense: null, sparse: null, saved: new Float64Array(stateSize), savedDrag: new Float64Array(stateSize),
    verifiable, verifiedSlots: null, verified: new Float64Array(0), verifiedMax: NaN, verifiedL: NaN,
  };
  return g.ws;
}

/** Whether the group's state slots still hold exactly the values at which it was last found to hold. */
export function stillHolds(system: System, ws: Workspace, tol: number): boolean {
  const slots = ws.verifiedSlots;
  if (!slots || !(ws.verifiedMax <= tol) || ws.verifiedL !== system.lengthScale) return false;
  const state = system.state, values = ws.verified;
  for (let i = 0; i < slots.length; i++) if (state[slots[i]] !== values[i]) return false;
  return true;
}
/** Record that the group holds here (largest row maxResidual). */
export function recordHolds(system: System, g: Group, ws: Workspace, maxResidual: number): void {
  if (!ws.verifiable) return;
  if (!ws.verifiedSlots) {
    const slots = new Set<number>();
    for (const b of g.blocks) {
      for (const v of system.block(b).vars) {
        const variable = system.variables[v];
        const size = variable.kind === 'pose' ? 7 : 1;
        for (let i = 0; i < size; i++) slots.add(variable.offset + i);
      }
    }
    ws.verifiedSlots = Int32Array.from(slots);
    ws.verified = new Float64Array(slots.size);
  }
  const slots = ws.verifiedSlots, state = system.state;
  for (let i = 0; i < slots.length; i++) ws.verified[i] = state[slots[i]];
  ws.verifiedMax = maxResidual;
  ws.verifiedL = system.lengthScale;
}

/** Relative tolerance on the row-normalised Jacobian below which a pivot counts as zero. */
export const RANK_TOLERANCE = 1e-9;

/**
 * Assemble the group's hard rows at the current state: c (m) and J (m × n, row-major,
 * scaled columns so every entry is dimensionless). Returns m.
 */
export function assembleGroup(system: System, g: Group, colOfVar: Int32Array, limits: readonly ScalarTargetBlock[], c: Float64Array, J: Float64Array | null, local: Float64Array, localRes: Float64Array): number {
  // J is zeroed in one pass (blocks only add into their own columns)
  if (J) J.fill(0, 0, Math.min(J.length, (g.rowsMax - g.limited.length + limits.length) * g.n));
  let row = 0;
  const blocks = g.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    row = assembleDenseBlock(system, g.n, colOfVar, system.block(b), system.blockOffsets(b), system.blockLocalDim(b), row, c, J, local, localRes);
  }
  for (const lim of limits) {
    limitOffset[0] = system.variables[lim.vars[0]].offset;
    row = assembleDenseBlock(system, g.n, colOfVar, lim, limitOffset, 1, row, c, J, local, localRes);
  }
  return row;
}
const limitOffset = new Int32Array(1);

/** One block's rows into c and (J already zero there) its Jacobian, ld = its local columns. */
function assembleDenseBlock(system: System, n: number, colOfVar: Int32Array, blk: ResidualBlock, offsets: Int32Array, ld: number, row: number, c: Float64Array, J: Float64Array | null, local: Float64Array, localRes: Float64Array): number {
  blk.evaluate(system.state, offsets, localRes, J ? local : null);
  const rows = blk.rows;
  for (let r = 0; r < rows; r++) c[row + r] = localRes[r];
  if (J) {
    const vars = blk.vars;
    let lc = 0;
    for (let i = 0; i < vars.length; i++) {
      const vid = vars[i];
      const variable = system.variables[vid];
      const gc = colOfVar[vid];
      if (gc >= 0) {
        if (variable.kind === 'pose') {
          const L = system.lengthScale;
          for (let r = 0; r < rows; r++) {
            const src = r * ld + lc, dst = (row + r) * n + gc;
            J[dst] += local[src] / L; J[dst + 1] += local[src + 1] / L; J[dst + 2] += local[src + 2] / L;
            J[dst + 3] += local[src + 3]; J[dst + 4] += local[src + 4]; J[dst + 5] += local[src + 5];
          }
        } else {
          const k = 1 / variable.scale;
          for (let r = 0; r < rows; r++) J[(row + r) * n + gc] += local[r * ld + lc] * k;
        }
      }
      lc += variable.dim;
    }
  }
  return row + rows;
}

function columnMap(system: System, groups: readonly Group[]): Int32Array {
  const map = new Int32Array(system.variables.length).fill(-1);
  for (const g of groups) for (let i = 0; i < g.vars.length; i++) map[g.vars[i]] = g.cols[i];
  return map;
}

/**
 * The column of each var in group g (−1 for a fixed var; a var of another group reads its
 * column there, which g's blocks never ask for). One map per structure, not per group: a
 * map per group costs groups × variables (2000 chains of 10 links: 320 MB).
 */
const colMaps = new WeakMap<Group, Int32Array>();
export function colMapOf(system: System, g: Group): Int32Array {
  const s = structureOf.get(g);
  if (s) return (s.colMap ??= columnMap(system, s.groups));
  let m = colMaps.get(g);
  if (!m) { m = columnMap(system, [g]); colMaps.set(g, m); }
  return m;
}

