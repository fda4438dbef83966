/**
 * Assemble mode's pure parts (viewer/src/assemble.ts), in Node: the mate menu against
 * what the loader really accepts, measured mates, the library, importing parts, and
 * suspension roles on a corner assembled from the library — solved by the viewer's own
 * engine (the code the solver worker runs), so the camber and the bump plot the viewer
 * shows are checked here without a browser.
 */
import { describe, expect, it } from 'vitest';
import { poseAt } from './pose-request';
import { readFileSync } from 'node:fs';
import {
  AssemblyError, CONSTRAINT_TYPES, JOINT_TYPES, parseAssembly, serializeAssembly, validateAssembly, type AssemblyDoc, type EntityKind, type MateDoc, type PartDoc,
} from '../../src/assembly';
import { History } from '../../src/reactive';
import { compileDocument, type LiveDocument } from '../../src/live';
import { buildModel } from '../../src/model/build';
import { solveModel } from '../../src/model/operations';
import { RolesError, validateRoles } from '../../src/suspension/build/roles';
import { SuspensionModel } from '../../src/suspension/build/model';
import { evaluateState } from '../../src/suspension/metrics/state';
import { LiveViewPresenter, type PoseResult } from '../../src/live/view/presenter.ts';
import {
  PART_LIBRARY, addLibraryPart, defaultMateType, directedEntities, importParts, mateBetween, mateRecipe,
  mateTypesFor, newAssembly, removeMateRecipe, removePartRecipe, retypeMateRecipe, worldEntity, type EntityMateType,
} from '../../src/live/view/assemble.ts';
import { ROLE_DEFAULTS, applyRolesRecipe, guessRoles, rolesFromForm, type RolesForm } from '../../src/live/view/assemble-roles.ts';

const KINDS: EntityKind[] = ['point', 'frame', 'axis', 'plane', 'circle', 'curve'];
const ENTITY_TYPES = [...CONSTRAINT_TYPES, ...JOINT_TYPES] as const;

/** One entity of each kind, all named `e`, at a place of its own. */
function partWith(kind: EntityKind, at: number, fixed: boolean): PartDoc {
  const pose = { position: [at, 0, 0] as const, rotation: [1, 0, 0, 0] as const };
  const o = [0, 10, 0] as const;
  const entity: Partial<PartDoc> = {
    point: { points: { e: o } },
    frame: { frames: { e: { origin: o, rotation: [1, 0, 0, 0] as const } } },
    axis: { axes: { e: { origin: o, direction: [0, 0, 1] as const } } },
    plane: { planes: { e: { origin: o, normal: [0, 0, 1] as const } } },
    circle: { circles: { e: { center: o, normal: [0, 0, 1] as const, radius: 5 } } },
    curve: { curves: { e: { polyline: [o, [0, 20, 0] as const] } } },
  }[kind]!;
  return { ...(fixed ? { fixed: true } : {}), pose, ...entity } as PartDoc;
}

function pairDoc(a: EntityKind, b: EntityKind, mates: Record<string, unknown> = {}): AssemblyDoc {
  return {
    format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
    parts: { g: partWith(a, 0, true), p: partWith(b, 100, false) }, mates: mates as Record<string, MateDoc>, state: {}, held: [],
  };
}

/** The mate a hand would write: the required value for dimensioned types. */
function rawMate(type: string): Record<string, unknown> {
  return { type, a: 'g.e', b: 'p.e', ...(type === 'distance' || type === 'angle' ? { value: 1 } : {}) };
}

const liveHistory = (doc: LiveDocument) => new History<LiveDocument>(doc, {
  validate: (d) => { try { compileDocument(d); return null; } catch (e) { return (e as Error).message; } },
});

describe('assemble mode: mate types', () => {
  it('offers, for every pair of entity kinds, exactly the types the loader accepts: each offered mate loads, each other type is refused', () => {
    let offeredSomewhere = 0;
    for (const a of KINDS) {
      for (const b of KINDS) {
        const offered = mateTypesFor(a, b);
        expect(new Set(offered).size).toBe(offered.length);
        for (const type of ENTITY_TYPES) {
          if (offered.includes(type)) {
            const mate = mateBetween(pairDoc(a, b), type, 'g.e', 'p.e');
            expect(() => validateAssembly(pairDoc(a, b, { m: mate })), `${type} ${a}–${b}`).not.toThrow();
            offeredSomewhere++;
          } else {
            expect(() => validateAssembly(pairDoc(a, b, { m: rawMate(type) })), `${type} ${a}–${b} should be refused`).toThrow(AssemblyError);
          }
        }
      }
    }
    expect(offeredSomewhere).toBeGreaterThan(50);
  });

  it('defaults: ball between points, revolute between axes or frames, coincident for planes and a point on an axis or plane; none for curve–curve', () => {
    expect(defaultMateType('point', 'point')).toBe('ball');
    expect(defaultMateType('axis', 'axis')).toBe('revolute');
    expect(mateTypesFor('axis', 'axis')).toContain('concentric');
    expect(defaultMateType('frame', 'frame')).toBe('revolute');
    expect(defaultMateType('axis', 'frame')).toBe('revolute');
    expect(defaultMateType('plane', 'plane')).toBe('coincident');
    expect(defaultMateType('point', 'axis')).toBe('coincident');
    expect(defaultMateType('axis', 'point')).toBe('coincident');
    expect(defaultMateType('point', 'plane')).toBe('coincident');
    expect(defaultMateType('point', 'frame')).toBe('ball');
    expect(defaultMateType('point', 'curve')).toBe('path');
    expect(mateTypesFor('point', 'point')).toEqual(['ball', 'coincident', 'distance']);
    expect(defaultMateType('curve', 'curve')).toBeNull();
    expect(() => mateBetween(pairDoc('point', 'point'), 'revolute', 'g.e', 'p.e')).toThrow(AssemblyError);
  });

  it('a distance keeps the picked distance (to a point, an axis, signed to a plane), an angle the picked angle; opposed axes get flip', () => {
    const doc = pairDoc('point', 'point');
    // the moving part's point at (100, 10, 0); the fixed one at (0, 10, 0)
    expect(mateBetween(doc, 'distance', 'g.e', 'p.e')).toEqual({ type: 'distance', a: 'g.e', b: 'p.e', value: 100 });
    // at solved poses: p turned a quarter about z and moved
    const q = Math.SQRT1_2;
    const poses = { p: [0, 0, 30, q, 0, 0, q] };
    expect(worldEntity(doc, 'p.e', poses)!.origin.map((x) => Math.round(x * 1e9) / 1e9)).toEqual([-10, 0, 30]);
    expect((mateBetween(doc, 'distance', 'g.e', 'p.e', poses) as { value: number }).value).toBeCloseTo(Math.hypot(10, 10, 30), 3);
    // point to axis (z through (0, 10, 0)) and to plane (z = 0, normal +z)
    const toAxis = pairDoc('axis', 'point');
    expect((mateBetween(toAxis, 'distance', 'p.e', 'g.e') as { value: number }).value).toBe(100);
    const toPlane = pairDoc('plane', 'point');
    expect((mateBetween(toPlane, 'distance', 'g.e', 'p.e', { p: [100, 0, -25, 1, 0, 0, 0] }) as { value: number }).value).toBe(-25);
    // two axes: the moving one turned 90° about x is square to the fixed one, 180° opposed
    const axes = pairDoc('axis', 'axis');
    expect((mateBetween(axes, 'angle', 'g.e', 'p.e', { p: [100, 0, 0, q, q, 0, 0] }) as { value: number }).value).toBeCloseTo(90, 9);
    expect(mateBetween(axes, 'parallel', 'g.e', 'p.e', { p: [100, 0, 0, 0, 1, 0, 0] })).toEqual({ type: 'parallel', a: 'g.e', b: 'p.e', flip: true });
    expect(mateBetween(axes, 'parallel', 'g.e', 'p.e')).toEqual({ type: 'parallel', a: 'g.e', b: 'p.e' });
  });
});

describe('assemble mode: the library', () => {
  it('every library part loads with its entities, and no two of its handles stand within 40 mm (a click picks one)', () => {
    for (const entry of PART_LIBRARY) {
      const { recipe, name } = addLibraryPart(newAssembly(), entry.id);
      const history = liveHistory(newAssembly());
      history.apply(recipe, 'add');
      const doc = (history.current as { doc: AssemblyDoc }).doc;
      const refs = [...Object.keys(entry.points), ...Object.keys(entry.axes ?? {}), ...Object.keys(entry.frames ?? {})].map((n) => `${name}.${n}`);
      expect(refs.length).toBeGreaterThan(Object.keys(entry.points).length - 1);
      const at = refs.map((r) => worldEntity(doc, r)!.origin);
      for (let i = 0; i < at.length; i++) for (let j = i + 1; j < at.length; j++) {
        expect(Math.hypot(at[i][0] - at[j][0], at[i][1] - at[j][1], at[i][2] - at[j][2]), `${refs[i]} / ${refs[j]}`).toBeGreaterThan(40);
      }
    }
    // axes and frames are drawn as lines: the A-arm's hinge runs through its inboard points
    const doc = (() => { const h = liveHistory(newAssembly()); h.apply(addLibraryPart(h.current, 'a_arm').recipe, 'add'); return (h.current as { doc: AssemblyDoc }).doc; })();
    const hinge = directedEntities(doc).find((e) => e.ref === 'a_arm.hinge')!;
    expect(hinge.kind).toBe('axis');
    const [f, r] = [doc.parts.a_arm.points!.inboard_front, doc.parts.a_arm.points!.inboard_rear];
    const d = [f[0] - r[0], f[1] - r[1], f[2] - r[2]];
    const cross = [d[1] * hinge.direction[2] - d[2] * hinge.direction[1], d[2] * hinge.direction[0] - d[0] * hinge.direction[2], d[0] * hinge.direction[1] - d[1] * hinge.direction[0]];
    expect(Math.hypot(...cross)).toBeLessThan(1e-9);
  });
});

/** Builds by "picks" as the app does: every step one edit, solved by the viewer's engine, measured at the last good poses. */
class Builder {
  readonly history = liveHistory(newAssembly());
  readonly engine = new LiveViewPresenter();
  private key = 1;
  last: PoseResult;
  good: PoseResult['poses'];

  constructor() {
    this.last = this.engine.pose(poseAt(this.key, this.history.current, { travel: [], rack: 0 }));
    this.good = this.last.poses;
  }

  get doc(): AssemblyDoc { return (this.history.current as { doc: AssemblyDoc }).doc; }

  solve(): PoseResult {
    this.last = this.engine.pose(poseAt(++this.key, this.history.current, { travel: [0], rack: 0 }));
    if (this.last.ok) this.good = this.last.poses;
    return this.last;
  }

  add(id: string): string {
    const { recipe, name } = addLibraryPart(this.history.current, id);
    this.history.apply(recipe, `add ${name}`);
    this.solve();
    return name;
  }

  mate(a: string, b: string, type?: EntityMateType): string {
    const kind = (r: string) => worldEntity(this.doc, r)!.kind;
    const made = mateRecipe(this.history.current, type ?? defaultMateType(kind(a), kind(b))!, a, b, this.good);
    this.history.apply(made.recipe, `mate ${made.id}`);
    this.solve();
    return made.id;
  }
}

const CORNER_FORM: RolesForm = {
  chassis: 'ground', upright: 'upright', side: 'left', axleInboard: 'upright.axle_inboard', axleOutboard: 'upright.axle_outboard',
  steeringAxis: ['upright.lower', 'upright.upper'], steering: null, wheelOffset: ROLE_DEFAULTS.wheelOffset, tire: { ...ROLE_DEFAULTS.tire },
};

/** A double-wishbone corner from library parts, as the e2e test clicks it. */
function assembleCorner(): Builder {
  const b = new Builder();
  const dofs: number[] = [];
  const step = () => { expect(b.last.ok, b.last.message ?? '').toBe(true); dofs.push(b.last.dof); };
  b.add('a_arm'); step();
  const hinge = b.mate('ground.hinge_low', 'a_arm.hinge');
  expect(b.doc.mates[hinge].type).toBe('revolute'); step();
  b.add('a_arm'); step();
  b.mate('ground.hinge_high', 'a_arm2.hinge'); step();
  b.add('upright'); step();
  const ball = b.mate('a_arm.outboard', 'upright.lower');
  expect(b.doc.mates[ball].type).toBe('ball'); step();
  b.mate('a_arm2.outboard', 'upright.upper'); step();
  // 6 per part, 5 per revolute, 3 per ball: bump and the upright's turn about its ball joints are left
  expect(dofs).toEqual([6, 1, 7, 2, 8, 5, 2]);
  return b;
}

describe('assemble mode: a corner assembled from the library', () => {
  it('a ball from the upright to the chassis conflicts (named, last good pose kept); re-made as a distance it holds and leaves bump alone', () => {
    const b = assembleCorner();
    const ball = b.mate('ground.E', 'upright.steer_arm');
    expect(b.doc.mates[ball].type).toBe('ball');
    expect(b.last.ok).toBe(false);
    expect(b.last.failed).toContain(ball);
    const retyped = retypeMateRecipe(b.history.current, ball, 'distance', b.good);
    b.history.apply(retyped.recipe, 'retype');
    expect(Object.keys(b.doc.mates)).not.toContain(ball);
    expect(b.doc.mates[retyped.id]).toMatchObject({ type: 'distance', a: 'ground.E', b: 'upright.steer_arm' });
    expect(b.solve().ok).toBe(true);
    expect(b.last.dof).toBe(1);
    // the retype was one undo entry: undo brings the ball back
    b.history.undo();
    expect(b.doc.mates[ball].type).toBe('ball');
    b.history.redo();
    // the saved file solves from its own poses (as `kinemate solve` does)
    const saved = parseAssembly(serializeAssembly(b.doc));
    const solved = solveModel(buildModel(saved));
    expect(solved.status).toBe('solved');
    expect(solved.dof).toBe(1);
  });

  it('suspension roles: validated, a SuspensionModel builds and gives camber; the engine then runs the metrics and the bump sweep', () => {
    const b = assembleCorner();
    b.mate('ground.E', 'upright.steer_arm', 'distance');
    expect(b.last.ok && b.last.dof).toBe(1);
    expect(b.last.suspension).toBe(false);
    expect(guessRoles(b.doc)).toMatchObject({ chassis: 'ground', upright: 'upright', axleInboard: 'upright.axle_inboard', axleOutboard: 'upright.axle_outboard', steeringAxis: ['upright.lower', 'upright.upper'] });
    const roles = rolesFromForm(b.doc, CORNER_FORM);
    expect(validateRoles(structuredClone(roles))).toEqual(roles);
    expect(roles.corners[0].instant_axis).toEqual({ type: 'screw' });
    const applied = applyRolesRecipe(b.history.current, CORNER_FORM, b.good);
    expect(applied.camber).not.toBeNull();
    b.history.apply(applied.recipe, 'roles');
    // the design is the assembled pose: the upright's pose in the file is the solved one
    expect(b.doc.parts.upright.pose.position[0]).toBeCloseTo(b.good.upright[0], 9);
    const sm = new SuspensionModel(b.doc);
    const camber = evaluateState(sm).metrics as Record<string, number | null>;
    expect(Number.isFinite(camber.camber)).toBe(true);
    expect(camber.camber).toBeCloseTo(applied.camber!, 9);
    // the axle stands square to the steering axis through the ball joints: camber is −KPI at design
    expect(camber.camber! + camber.kpi!).toBeCloseTo(0, 6);
    const pose = b.solve();
    expect(pose.ok).toBe(true);
    expect(pose.suspension).toBe(true);
    expect(pose.dof).toBe(1);
    expect(pose.metrics.camber).toBeCloseTo(camber.camber!, 6);
    expect(Number.isFinite(pose.metrics.deriv_camber_wrt_hub_z)).toBe(true);
    const sweep = b.engine.sweep({ docKey: 99, doc: b.history.current, range: { start: -40, stop: 40, steps: 9 } });
    expect(sweep.failedSteps).toBe(0);
    expect(sweep.series.camber.every((x) => typeof x === 'number' && Number.isFinite(x))).toBe(true);
    // camber changes through bump (a linkage, not a slider)
    expect(Math.abs(sweep.series.camber[8]! - sweep.series.camber[0]!)).toBeGreaterThan(1e-3);
    // the saved file keeps the roles
    expect(parseAssembly(serializeAssembly(b.doc)).suspension).toEqual(b.doc.suspension);
  });

  it('refuses bad roles naming the field, and changes nothing', () => {
    const b = assembleCorner();
    const before = b.history.current;
    const refused = (form: Partial<RolesForm>): string => {
      try {
        applyRolesRecipe(b.history.current, { ...CORNER_FORM, ...form }, b.good);
      } catch (error) {
        expect(error).toBeInstanceOf(RolesError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ upright: 'a_arm' })).toMatch(/^suspension\.corners\[0\]\.axle\[0\]: "upright\.axle_inboard" is not a point of the upright "a_arm"/);
    expect(refused({ chassis: 'a_arm' })).toMatch(/^suspension\.chassis: part "a_arm" is not fixed/);
    expect(refused({ chassis: '' })).toMatch(/^suspension\.chassis: pick the chassis part/);
    expect(refused({ axleOutboard: 'upright.axle_inboard' })).toMatch(/^suspension\.corners\[0\]\.axle\[1\]/);
    expect(refused({ steeringAxis: ['upright.lower', ''] })).toMatch(/^suspension\.corners\[0\]\.steering_axis\[1\]: pick the steering axis upper point/);
    expect(refused({ steering: 'nope.slide' })).toMatch(/^suspension\.steering: no coordinate "nope\.slide"/);
    expect(refused({ tire: { ...CORNER_FORM.tire, section_width: 0 } })).toMatch(/^suspension\.corners\[0\]\.wheel\.tire\.section_width: expected a positive number/);
    expect(refused({ wheelOffset: NaN })).toMatch(/^suspension\.corners\[0\]\.wheel\.offset/);
    expect(b.history.current).toBe(before);
  });

  it('deleting a mate and a part are one undo entry each', () => {
    const b = assembleCorner();
    const before = b.doc;
    b.history.apply(removeMateRecipe('ball_a_arm2_upright'), 'delete');
    // the upper ball's three freedoms come back
    expect(b.solve().dof).toBe(5);
    b.history.undo();
    expect(b.doc).toBe(before);
    b.history.apply(removePartRecipe('a_arm2'), 'delete part');
    expect(Object.keys(b.doc.parts)).not.toContain('a_arm2');
    expect(Object.keys(b.doc.mates).some((m) => m.includes('a_arm2'))).toBe(false);
    // the lower arm's turn and the upright's three on its ball joint
    expect(b.solve().dof).toBe(4);
    b.history.undo();
    expect(b.doc).toBe(before);
  });
});

describe('assemble mode: importing parts', () => {
  const fourBarText = readFileSync(new URL('../assembly/fixtures/four-bar.kinemate.json', import.meta.url), 'utf8');

  it('adds the moving parts with their entities, renamed on a clash, beside what is there; the ground is left out', () => {
    const history = liveHistory(newAssembly());
    history.apply(addLibraryPart(history.current, 'rocker').recipe, 'add rocker');
    const source = parseAssembly(fourBarText);
    const { recipe, names } = importParts(history.current, source, 'four-bar.kinemate.json');
    history.apply(recipe, 'import');
    expect(names).toEqual([['crank', 'crank'], ['coupler', 'coupler'], ['rocker', 'rocker2']]);
    const doc = (history.current as { doc: AssemblyDoc }).doc;
    expect(Object.keys(doc.parts)).toEqual(['ground', 'rocker', 'crank', 'coupler', 'rocker2']);
    expect(doc.parts.rocker2.frames).toEqual(source.parts.rocker.frames);
    expect(doc.parts.rocker2.fixed).toBeUndefined();
    expect(doc.parts.rocker2.pose.rotation).toEqual(source.parts.rocker.pose.rotation);
    // beside: every imported entity lies past everything that was there
    const xs = (parts: string[]) => parts.flatMap((p) => [...Object.keys(doc.parts[p].points ?? {}), ...Object.keys(doc.parts[p].frames ?? {}), ...Object.keys(doc.parts[p].axes ?? {}), ...Object.keys(doc.parts[p].planes ?? {})].map((e) => worldEntity(doc, `${p}.${e}`)!.origin[0]));
    expect(Math.min(...xs(['crank', 'coupler', 'rocker2']))).toBeGreaterThan(Math.max(...xs(['ground', 'rocker'])));
    // the relative layout is kept
    expect(doc.parts.rocker2.pose.position[0] - doc.parts.crank.pose.position[0]).toBe(source.parts.rocker.pose.position[0] - source.parts.crank.pose.position[0]);
    // one undo entry
    history.undo();
    expect(Object.keys((history.current as { doc: AssemblyDoc }).doc.parts)).toEqual(['ground', 'rocker']);
  });

  it('a file with only a fixed part, or a malformed one, is refused with a path-named error', () => {
    const onlyGround = validateAssembly({ ...parseAssembly(fourBarText), parts: { ground: parseAssembly(fourBarText).parts.ground }, mates: {}, state: {}, held: [] });
    expect(() => importParts(newAssembly(), onlyGround, 'g.kinemate.json')).toThrow(/^parts: g\.kinemate\.json has no moving part/);
    expect(() => parseAssembly(fourBarText.replace('"crank": {', '"crank": { "postion": [0, 0, 0],'))).toThrow(/^parts\.crank\.postion: unknown field "postion"/);
  });
});
