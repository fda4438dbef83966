import { chartSvg } from './src/pictures/plot.ts';
import { svgToPng } from './src/cli/png.ts';
import { writeFileSync } from 'node:fs';
const x = Array.from({ length: 101 }, (_, i) => i - 50);
const chart = { xTitle: 'wheel travel (mm)', panels: [
  { yTitle: 'camber (°)', curves: [{ source: 'dw.yaml', x, y: x.map((v) => -1.9 - 0.02 * v) }, { source: 'base.yaml', x, y: x.map((v) => -1.8 - 0.015 * v), dashed: true }], design: [{ source: 'dw.yaml', x: 0, y: -1.9 }, { source: 'base.yaml', x: 0, y: -1.8 }] },
  { yTitle: 'toe (°)', curves: [{ source: 'dw.yaml', x, y: x.map((v) => (v > 30 ? null : 0.001 * v * v)) }] },
] };
for (let k = 0; k < 3; k++) {
const t0 = performance.now();
const svg = await chartSvg(chart, { width: 800, height: 600 });
const t1 = performance.now();
const png = svgToPng(svg);
const t2 = performance.now();
console.log(t1 - t0, t2 - t1, svg.length);
writeFileSync('/tmp/p.svg', svg); writeFileSync('/tmp/p.png', png);
}
