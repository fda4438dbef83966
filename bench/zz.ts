import { readFileSync } from 'node:fs';
import { parseGeometry, sweepFromShortcut } from '../src/suspension/files';
import { SensitivityModel, gradientsAtFirstState } from '../src/suspension/sensitivity';
const model = new SensitivityModel(parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8')));
const here = gradientsAtFirstState(model, sweepFromShortcut('bump', '20:20:1'));
const m = model as any;
const drivers = [];
for (const mode of ['adjoint', 'direct'] as const) {
  for (let i = 0; i < 200; i++) here(mode);
  let t = performance.now();
  for (let i = 0; i < 300; i++) here(mode);
  console.log(mode, (performance.now() - t) / 300);
}
// plain evaluate with derivatives for reference
for (let i = 0; i < 200; i++) model.sm.evaluate();
let t = performance.now();
for (let i = 0; i < 300; i++) model.sm.evaluate();
console.log('plain evaluate', (performance.now() - t) / 300);
