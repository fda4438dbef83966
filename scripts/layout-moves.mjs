/** The file moves of issue 26's layout (old → new), for scripts/move-files.mjs. */
const m = {};
const add = (from, to) => { m[from] = to; };
// kernel
for (const [f, t] of [['solver', 'solve'], ['solver-dense', 'dense'], ['solver-groups', 'groups'], ['solver-linear', 'linear'], ['solver-newton', 'newton'], ['solver-objective', 'objective'], ['solver-sparse', 'sparse']]) add(`kernel/${f}.ts`, `kernel/solver/${t}.ts`);
add('kernel/integrator/integrator.ts', 'kernel/integrator/integrator.ts');
// dynamics → mechanics
for (const f of ['build', 'equilibrium', 'modes', 'reduced', 'simulate', 'statics']) add(`src/dynamics/${f}.ts`, `src/mechanics/${f}.ts`);
// dynamics → gradients
add('src/gradients/run.ts', 'src/gradients/run.ts');
add('src/gradients/start.ts', 'src/gradients/start.ts');
add('src/gradients/free-start.ts', 'src/gradients/free-start.ts');
add('src/gradients/parameters/coefficients.ts', 'src/gradients/parameters/coefficients.ts');
add('src/gradients/parameters/hardpoints.ts', 'src/gradients/parameters/hardpoints.ts');
add('src/gradients/parameters/directions.ts', 'src/gradients/parameters/directions.ts');
add('src/gradients/results/forces.ts', 'src/gradients/results/forces.ts');
add('src/gradients/results/own.ts', 'src/gradients/results/own.ts');
add('src/gradients/results/reactions.ts', 'src/gradients/results/reactions.ts');
add('src/gradients/results/tension.ts', 'src/gradients/results/tension.ts');
// dynamics → suspension
add('src/suspension/dynamics/model.ts', 'src/suspension/dynamics/model.ts');
add('src/suspension/loads/rates.ts', 'src/suspension/loads/rates.ts');
add('src/suspension/loads/axle-rates.ts', 'src/suspension/loads/axle-rates.ts');
for (const [f, t] of [['geometry', 'geometry'], ['lumps', 'lumps'], ['road', 'road'], ['axle-points', 'axle-points'], ['frames', 'frames'], ['suspension-results', 'results']]) add(`src/dynamics/sensitivity-${f}.ts`, `src/suspension/gradients/simulation/${t}.ts`);
// suspension/*
const S = 'src/suspension';
const sus = {
  build: ['template', 'roles', 'devices', 'device-forces', 'solid-axle', 'model', 'targets', 'setup'],
  metrics: [['metric-values', 'values'], ['steering', 'steering'], ['state', 'state']],
  sweep: ['sweep'],
  loads: ['loads'],
  design: ['fit', 'batch', 'batch-pool', 'batch-worker', 'batch-worker-url', 'variant-models'],
  gradients: [['sensitivity', 'model'], ['axle-load-sensitivity', 'axle-loads'], ['bar-axis-rate', 'bar-axis'], ['beam-roll-centre-sensitivity', 'beam-roll-centre'], 'bump-system', ['curve-sensitivity', 'curves'], ['derivative-sensitivity', 'derivatives'], ['device-load-rates', 'device-loads'], ['device-sensitivity', 'devices'], ['element-hold-rates', 'element-holds'], ['instant-axis-sensitivity', 'instant-axis'], ['jacobian-rate', 'jacobian'], ['joint-wrench-rates', 'joint-wrenches'], 'length-driver', ['load-sensitivity', 'loads'], ['motion-ratio-rates', 'motion-ratios'], 'rod-fraction', ['rod-length-rate', 'rod-length'], ['roll-centre-sensitivity', 'roll-centre'], 'tangent-ops', ['virtual-sensitivity', 'virtual']],
};
for (const [dir, files] of Object.entries(sus)) for (const f of files) { const [a, b] = Array.isArray(f) ? f : [f, f]; add(`${S}/${a}.ts`, `${S}/${dir}/${b}.ts`); }
add(`${S}/batch-worker.mjs`, `${S}/design/batch-worker.mjs`);
// tests: kernel
add('test/kernel/solver/solve.test.ts', 'test/kernel/solver/solve.test.ts');
// tests: dynamics
const T = 'test/dynamics';
for (const f of ['cli.test', 'equilibrium.test', 'file.test', 'forces.test', 'helpers', 'links.test', 'models', 'modes.test', 'rolling-curvature.test', 'rolling.test', 'simulate-examples.test', 'simulate-start.test', 'simulate.test', 'statics.test']) add(`${T}/${f}.ts`, `test/mechanics/${f}.ts`);
for (const f of ['sim-adjoint', 'sim-coefficients', 'sim-force-results', 'sim-free-start', 'sim-gradient', 'sim-gradient-progress', 'sim-hardpoints', 'sim-reaction-results', 'sim-redundant', 'sim-start', 'sim-start-motion', 'sim-tension']) add(`${T}/${f}.test.ts`, `test/gradients/${f.replace(/^sim-/, '')}.test.ts`);
add(`${T}/pinewood-gradient.test.ts`, 'test/gradients/pinewood.test.ts');
add(`${T}/sim-checks.ts`, 'test/gradients/sim-checks.ts');
add(`${T}/sim-models.ts`, 'test/gradients/sim-models.ts');
for (const [f, t] of [['sim-axes', 'axes'], ['sim-geometry', 'geometry'], ['sim-geometry-frames', 'frames'], ['sim-geometry-masses', 'lumps'], ['sim-geometry-results', 'results'], ['sim-settled-moving', 'settled-moving']]) add(`${T}/${f}.test.ts`, `test/suspension/gradients/simulation/${t}.test.ts`);
add(`${T}/geometry-fd.ts`, 'test/suspension/gradients/simulation/geometry-fd.ts');
add(`${T}/dynamics-sources.ts`, 'test/suspension/dynamics/dynamics-sources.ts');
add(`${T}/suspension-dynamics.test.ts`, 'test/suspension/dynamics/model.test.ts');
add(`${T}/rates.test.ts`, 'test/suspension/loads/rates.test.ts');
add(`${T}/device-rates.test.ts`, 'test/suspension/loads/device-rates.test.ts');
add(`${T}/geometry-springs.test.ts`, 'test/suspension/loads/geometry-springs.test.ts');
// tests: suspension
const U = 'test/suspension';
const tsus = {
  files: [['files-examples', 'examples'], ['files-geometry', 'geometry'], ['files-sweep', 'sweep'], 'degenerate'],
  metrics: ['metrics', 'metric-inputs', ['metric-values', 'values'], 'steering', 'steering-instant', 'steering-geometry', 'devices', 'closedforms'],
  build: ['axles', 'renew-model', 'targets', 'tangent-sparse'],
  sweep: ['sweep', 'sweep-values'],
  design: ['batch', 'batch-pool', 'fit', 'fit-axle', 'fit-roll-centre'],
  loads: ['loads'],
  gradients: [['sensitivity', 'model'], ['curve-sensitivity', 'curves'], ...['axle-roll', 'axle', 'coincident', 'derivatives', 'devices', 'half-track', 'instant-axis', 'length-rod', 'roll-centre', 'second-order-drivers', 'steering-null', 'virtual-axle', 'virtual'].map((x) => [`sensitivity-${x}`, x]),
    ['load-sensitivity', 'loads'], ...['axle', 'bar-axis', 'coincident', 'elements', 'fixed-joint', 'joints', 'motion-ratio'].map((x) => [`load-sensitivity-${x}`, `loads-${x}`])],
};
for (const [dir, files] of Object.entries(tsus)) for (const f of files) { const [a, b] = Array.isArray(f) ? f : [f, f]; add(`${U}/${a}.test.ts`, `${U}/${dir}/${b}.test.ts`); }
add(`${U}/load-differences.ts`, `${U}/gradients/load-differences.ts`);
export default m;
