/**
 * jointRows' one-function paths — joints of origin, axis and angle rows with at most a slide
 * along z_a (hingeRows: a revolute, slider, cylindrical or fastened joint), and balls — against its general
 * code (jointRowsGeneral), bit for bit — a zero's sign too: every angle and slide slot, each
 * part's columns present or dropped, random frames, rotations and state. The general code
 * against the dual pass is joint-rows.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { jointRows, jointRowsGeneral, jointRowsKind, type JointFrame, type JointRowsInput } from '../../mates/joint-rows';
import { rng } from '../util/rng';
import { between, vec, type Rand } from '../util/random-pose';

const v3 = (r: Rand, s = 1) => Float64Array.from(vec(r, s));
const frame = (r: Rand): JointFrame => ({ origin: v3(r, 200), x: v3(r), y: v3(r), z: v3(r) });

/** Both paths at one case; how many entries were compared. */
function compare(input: JointRowsInput, r: Rand, cA: number, cB: number, label: string): number {
  const scalars = (input.angle >= 0 ? 1 : 0) + (input.slides[0] >= 0 ? 1 : 0);
  // columns: A's six, B's six (where present), then the scalars'
  let n = 0;
  const cols = new Int32Array(2 + scalars);
  cols[0] = cA >= 0 ? (n += 6) - 6 : -1;
  cols[1] = cB >= 0 ? (n += 6) - 6 : -1;
  for (let k = 0; k < scalars; k++) cols[2 + k] = n++;
  const state = Float64Array.from({ length: 16 }, () => between(r, -2, 2));
  const offsets = Int32Array.of(0, 7, 14, 15);
  const RA = Float64Array.from({ length: 9 }, () => between(r, -1, 1)), RB = Float64Array.from({ length: 9 }, () => between(r, -1, 1));
  const rows = input.type === 'ball' ? 3 : 6;
  const res1 = new Float64Array(rows).fill(NaN), res2 = new Float64Array(rows).fill(NaN);
  const jac1 = new Float64Array(rows * n).fill(NaN), jac2 = new Float64Array(rows * n).fill(NaN);
  const trig1 = new Float64Array(2), trig2 = new Float64Array(2);
  jointRows(input, RA, RB, state, offsets, cols, n, rows, res1, jac1, trig1);
  jointRowsGeneral(input, RA, RB, state, offsets, cols, n, rows, res2, jac2, trig2);
  for (let i = 0; i < rows; i++) expect(Object.is(res1[i], res2[i]), `${label} row ${i}: ${res1[i]} vs ${res2[i]}`).toBe(true);
  for (let i = 0; i < jac1.length; i++) expect(Object.is(jac1[i], jac2[i]), `${label} J[${i}]: ${jac1[i]} vs ${jac2[i]}`).toBe(true);
  expect(Array.from(trig1)).toEqual(Array.from(trig2));
  // values alone
  const res3 = new Float64Array(rows);
  jointRows(input, RA, RB, state, offsets, cols, n, rows, res3, null);
  for (let i = 0; i < rows; i++) expect(Object.is(res3[i], res2[i]), `${label} values row ${i}`).toBe(true);
  return jac1.length;
}

describe('a hinge\'s or a ball\'s rows in one function', () => {
  // [type, angle slot, slide slot]: as the joints' coordinates fall (and the other order)
  const cases: [string, number, number][] = [
    ['revolute', 0, -1], ['revolute', -1, -1], ['slider', -1, 0], ['cylindrical', 1, 0], ['cylindrical', 0, 1], ['fastened', -1, -1], ['ball', -1, -1],
  ];
  for (const [type, angle, slide] of cases) {
    it(`${type} (angle ${angle}, slide ${slide})`, () => {
      let compared = 0;
      for (let k = 0; k < 12; k++) {
        const r = rng(7300 + 41 * k + 5 * angle + 3 * slide + type.length);
        const slides = Int32Array.of(slide, -1, -1);
        const input: JointRowsInput = { type, fa: frame(r), fb: frame(r), L: between(r, 0.5, 300), angle, slides, kind: jointRowsKind(type, slides) };
        for (const [cA, cB] of [[0, 0], [-1, 0], [0, -1], [-1, -1]]) compared += compare(input, r, cA, cB, `${type} #${k} ${cA},${cB}`);
      }
      expect(compared).toBeGreaterThan(0);
    });
  }
});
