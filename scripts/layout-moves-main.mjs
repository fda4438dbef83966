/** Files main gained while the layout of issue 26 was made, moved into it (scripts/move-files.mjs; the first map is layout-moves.mjs). */
const U = 'test/suspension';
export default {
  'src/suspension/gradients/setup.ts': 'src/suspension/gradients/setup.ts',
  [`${U}/sensitivity-setup.test.ts`]: `${U}/gradients/setup.test.ts`,
  [`${U}/fit-examples.test.ts`]: `${U}/design/fit-examples.test.ts`,
  [`${U}/geometry-sections.test.ts`]: `${U}/files/geometry-sections.test.ts`,
  [`${U}/metrics-doc.test.ts`]: `${U}/metrics/metrics-doc.test.ts`,
  [`${U}/sweep-values-list.test.ts`]: `${U}/sweep/sweep-values-list.test.ts`,
};
