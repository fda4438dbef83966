/**
 * Every block the catalogue makes, against central differences through each variable's
 * retraction (test/util/fd.ts), at random poses and random coordinate values (not at a
 * solution: the rows are checked where they do not vanish). Every constraint with every
 * pair of entity kinds it takes, in both orders; every joint with every kind of end it
 * takes; every coupling with every pair of coordinate kinds it takes; a hold.
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import {
  addMate, CONSTRAINT_ENTITY_PAIRS, CONSTRAINT_TYPES, COUPLING_TYPES, Curve, JOINT_TYPES, JOINT_COORDINATES, frameEntity, jointAccepts,
  type CoordinateKind, type CouplingType, type Entity, type EntityKind, type MateSpec,
} from '../../mates';
import { finiteDifferenceJacobian, maxAbsDiff } from '../util/fd';
import { rng } from '../util/rng';
import { between, quat, vec, type Rand } from '../util/random-pose';


const L = 2.5;

const CURVES: { closed: boolean; smooth: boolean }[] = [
  { closed: false, smooth: false }, { closed: false, smooth: true }, { closed: true, smooth: false }, { closed: true, smooth: true },
];

function entity(r: Rand, kind: EntityKind, curve = CURVES[0]): Entity {
  switch (kind) {
    case 'point': return { kind, point: vec(r) };
    case 'frame': return frameEntity(vec(r), quat(r));
    case 'axis': return { kind, origin: vec(r), direction: vec(r) };
    case 'plane': return { kind, origin: vec(r), normal: vec(r) };
    case 'circle': return { kind, center: vec(r), normal: vec(r), radius: between(r, 0.2, 0.8) };
    case 'curve': {
      const pts = Array.from({ length: 6 }, (_, i) => {
        const a = (2 * Math.PI * i) / 6;
        return [1.5 * Math.cos(a) + between(r, -0.2, 0.2), 1.2 * Math.sin(a) + between(r, -0.2, 0.2), between(r, -0.3, 0.3)] as const;
      });
      return { kind, curve: new Curve(pts, curve.closed, curve.smooth) };
    }
  }
}

/** A system of two free parts at random poses. */
function twoParts(r: Rand): { system: System; a: number; b: number } {
  const system = new System(L);
  const a = system.addPose('A', P.pose(vec(r, 2), quat(r)));
  const b = system.addPose('B', P.pose(vec(r, 2), quat(r)));
  return { system, a, b };
}

/** Move every coordinate a mate made off where it was measured (a foot u off any vertex). */
function scatterCoordinates(system: System, coordinates: Record<string, number>, r: Rand, curve?: Curve): void {
  for (const [name, v] of Object.entries(coordinates)) {
    const x = system.getScalar(v);
    if (name === 'u' && curve) {
      // strictly inside a span (derivatives jump at vertices of a polyline); closed curves wrap,
      // so try u outside [0, count) too; open ones also run a little past their ends
      const span = curve.closed ? Math.floor(between(r, -8, 14)) : Math.floor(between(r, -1, curve.count));
      system.setScalar(v, span + between(r, 0.2, 0.8));
    } else {
      system.setScalar(v, x + between(r, -0.4, 0.4));
    }
  }
}

function checkBlocks(system: System, blocks: readonly number[], label: string): void {
  expect(blocks.length, label).toBeGreaterThan(0);
  for (const i of blocks) {
    const { analytic, numeric } = finiteDifferenceJacobian(system, i);
    let scale = 0;
    for (const x of analytic) scale = Math.max(scale, Math.abs(x));
    expect(scale, `${label}: block ${i} has an all-zero Jacobian`).toBeGreaterThan(0);
    expect(maxAbsDiff(analytic, numeric), `${label}: block ${i} (${system.block(i).constructor.name})`).toBeLessThan(1e-6 * (1 + scale));
  }
}

const POSES = 6;

describe('constraint Jacobians vs central differences', () => {
  for (const type of CONSTRAINT_TYPES) {
    for (const [k1, k2] of CONSTRAINT_ENTITY_PAIRS[type]) {
      const orders: [EntityKind, EntityKind][] = k1 === k2 ? [[k1, k2]] : [[k1, k2], [k2, k1]];
      for (const [ka, kb] of orders) {
        const curveVariants = ka === 'curve' || kb === 'curve' ? CURVES : [CURVES[0]];
        for (const cv of curveVariants) {
          const tag = ka === 'curve' || kb === 'curve' ? ` (${cv.closed ? 'closed' : 'open'}, ${cv.smooth ? 'smooth' : 'polyline'})` : '';
          it(`${type} ${ka}–${kb}${tag}`, () => {
            for (let k = 0; k < POSES; k++) {
              const r = rng(1000 * k + type.length * 31 + ka.length * 7 + kb.length + (cv.closed ? 3 : 0) + (cv.smooth ? 5 : 0));
              const { system, a, b } = twoParts(r);
              const ea = entity(r, ka, cv), eb = entity(r, kb, cv);
              const value = type === 'distance' ? between(r, 0.2, 1.5) : type === 'angle' ? between(r, 0.3, 2.8) : undefined;
              const spec = { type, a: { part: a, entity: ea }, b: { part: b, entity: eb }, value } as MateSpec;
              const handle = addMate(system, 'm', spec);
              const curve = ea.kind === 'curve' ? ea.curve : eb.kind === 'curve' ? eb.curve : undefined;
              scatterCoordinates(system, handle.coordinates, r, curve);
              checkBlocks(system, handle.blocks, `${type} ${ka}–${kb}${tag} #${k}`);
            }
          });
        }
      }
    }
  }
  it('angle at 0 and at 180° (stated as parallel rows)', () => {
    for (const value of [0, Math.PI]) {
      const r = rng(value === 0 ? 77 : 78);
      const { system, a, b } = twoParts(r);
      const handle = addMate(system, 'm', { type: 'angle', a: { part: a, entity: entity(r, 'axis') }, b: { part: b, entity: entity(r, 'plane') }, value });
      checkBlocks(system, handle.blocks, `angle ${value}`);
    }
  });
});

describe('joint Jacobians vs central differences', () => {
  const kinds: EntityKind[] = ['frame', 'axis', 'point'];
  for (const type of JOINT_TYPES) {
    for (const ka of kinds.filter((k) => jointAccepts(type, k))) {
      for (const kb of kinds.filter((k) => jointAccepts(type, k))) {
        it(`${type} ${ka}–${kb}`, () => {
          for (let k = 0; k < POSES; k++) {
            const r = rng(5000 + 100 * k + type.length * 13 + ka.length * 3 + kb.length);
            const { system, a, b } = twoParts(r);
            const handle = addMate(system, 'j', { type, a: { part: a, entity: entity(r, ka) }, b: { part: b, entity: entity(r, kb) } });
            expect(Object.keys(handle.coordinates)).toEqual([...JOINT_COORDINATES[type]]);
            scatterCoordinates(system, handle.coordinates, r);
            checkBlocks(system, handle.blocks, `${type} ${ka}–${kb} #${k}`);
          }
        });
      }
    }
  }
});

describe('coupling and hold Jacobians vs central differences', () => {
  const all: CoordinateKind[] = ['angle', 'length', 'parameter'];
  const pairsOf = (type: CouplingType): [CoordinateKind, CoordinateKind][] => {
    switch (type) {
      case 'gear': case 'belt': return [['angle', 'angle']];
      case 'linear': return all.flatMap((x) => all.map((y) => [x, y] as [CoordinateKind, CoordinateKind]));
      case 'rackpinion': case 'screw': return [['angle', 'length'], ['length', 'angle']];
    }
  };
  const scaleOf = (k: CoordinateKind) => (k === 'angle' ? L : k === 'length' ? 1 : 0.7);
  for (const type of COUPLING_TYPES) {
    for (const [ka, kb] of pairsOf(type)) {
      it(`${type} ${ka}→${kb}`, () => {
        const r = rng(9000 + type.length * 17 + ka.length * 5 + kb.length);
        const system = new System(L);
        const va = system.addScalar('a', between(r, -2, 2), { scale: scaleOf(ka) });
        const vb = system.addScalar('b', between(r, -2, 2), { scale: scaleOf(kb) });
        const handle = addMate(system, 'c', { type, a: { variable: va, kind: ka }, b: { variable: vb, kind: kb }, ratio: -0.5, radius: 0.5, lead: 0.2, offset: 0.1 });
        checkBlocks(system, handle.blocks, `${type} ${ka}→${kb}`);
      });
    }
  }
  it('a hold (driver row)', () => {
    const system = new System(L);
    const v = system.addScalar('x', 0.3);
    system.hold(v, 0.1);
    system.setScalar(v, 0.7); // moves the hold's target with it: move the value alone
    system.state[system.variable(v).offset] = 0.9;
    checkBlocks(system, [system.blockCount - 1], 'hold');
  });
});
