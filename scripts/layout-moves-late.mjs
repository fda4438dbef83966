/** Files main gained after the layout branch last merged it, moved into the layout (scripts/move-files.mjs). */
const D = 'src/suspension';
export default {
  'src/gradients/refusal.ts': 'src/gradients/refusal.ts',
  ...Object.fromEntries(['doe-parameters', 'doe-sampling', 'doe-simulate-run', 'doe-simulate', 'doe-sweep'].map((f) => [`${D}/${f}.ts`, `${D}/design/${f}.ts`])),
  'kernel/integrator/product-group.ts': 'kernel/integrator/product-group.ts',
  'test/mechanics/rolling-incline.test.ts': 'test/mechanics/rolling-incline.test.ts',
  'test/mechanics/simulate-time.test.ts': 'test/mechanics/simulate-time.test.ts',
  'test/kernel/solver/groups.test.ts': 'test/kernel/solver/groups.test.ts',
  'test/suspension/design/doe-sampling.test.ts': 'test/suspension/design/doe-sampling.test.ts',
};
