// Kinemate as a library: write the four-bar to a file, load it, turn the crank to 90°, drive a full turn, save.
// Run: npx tsx examples/library-script.ts [FILE]   (FILE defaults to four-bar.kinemate.json in the temp folder)
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildModel, driveModel, loadAssemblyFile, saveAssemblyFile, solveModel, withState } from '../src/index.ts';
import { fourBarDoc } from './fourbar.ts';

const file = process.argv[2] ?? join(tmpdir(), 'four-bar.kinemate.json');
await saveAssemblyFile(file, fourBarDoc(30));                       // any *.kinemate.json will do
const doc = await loadAssemblyFile(file);                           // throws AssemblyError naming the path
const solved = solveModel(buildModel(doc), { set: { 'jA.angle': 90 } }); // degrees (the file's unit)
console.log(`crank 90°: ${solved.status}, rocker at ${(solved.state['jD.angle'] as number).toFixed(4)}°`);
const turn = driveModel(buildModel(doc), 'jA.angle', 30, 390, 36);  // 37 states, each from the last
console.log(`full turn: ${turn.steps.filter((step) => step.status === 'solved').length}/${turn.steps.length} steps solved`);
await saveAssemblyFile(file, withState(doc, solved.state));         // reloads with the crank at 90°
console.log(`saved ${file}`);
