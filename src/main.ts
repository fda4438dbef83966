/**
 * `npm start`: the main job. Until the viewer lands it drives the embedded default model
 * (the four-bar of examples/fourbar.ts) through a crank turn and prints what it solved.
 */
import { validateAssembly } from './assembly';
import { buildModel } from './model/build';
import { dofModel, driveModel, solveModel } from './model/operations';
import { fourBarDoc } from '../examples/fourbar';

const model = buildModel(validateAssembly(fourBarDoc(30)));
const solved = solveModel(model);
const dof = dofModel(model);
const drive = driveModel(model, 'jA.angle', 30, 390, 12);
console.log(`Kinemate — four-bar (ground 2.0, crank 0.8, coupler 1.8, rocker 1.3)`);
console.log(`solve: ${solved.status}, ${solved.iterations} iterations, max residual ${solved.maxResidual.toExponential(2)}, dof ${dof.dof} (redundant: ${dof.redundant.join(', ') || 'none'})`);
console.log('crank (deg)   rocker (deg)   status');
for (const s of drive.steps) console.log(`${s.value.toFixed(1).padStart(10)}   ${(s.state['jD.angle'] as number).toFixed(6).padStart(12)}   ${s.status}`);
