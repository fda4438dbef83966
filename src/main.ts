/**
 * `npm start`: the main job. Until the viewer lands it solves the embedded default example
 * and prints what it solved.
 */
import { System } from '../kernel/system';
import { solve } from '../kernel/solver';
import { freedom } from '../kernel/analysis';
import * as P from '../kernel/pose';
import { hingedLink } from '../test/kernel/toyBlocks';

const system = new System(1);
const link = hingedLink(system, 'link', [0, 0, 0], Math.PI / 2);
const target = (179.5 * Math.PI) / 180;
const report = solve(system, { pulls: [{ variable: link, point: [1, 0, 0], target: [Math.cos(target), Math.sin(target), 0] }] });
const tip = P.applyPoint(new Float64Array(3), system.getPose(link), [1, 0, 0]);
console.log(JSON.stringify({ example: 'hinged link pulled to 179.5°', report, dof: freedom(system).dof, tip: Array.from(tip) }, null, 2));
