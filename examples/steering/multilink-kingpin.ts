/**
 * The multi-link's virtual kingpin through bump and steer.
 *
 *   npx tsx examples/steering/multilink-kingpin.ts [out.svg]
 *
 * Geometry: examples/suspension/multi_link.yaml (the public five-rod multi-link). Two
 * sweeps: bump −60 → 60 mm of wheel-centre travel with the rack held, and steer −40 → 40
 * mm of rack with the wheel-centre height held. At every solved state the steering
 * response is computed with the layout-default hold (damper length), independent of the
 * sweep, and its screw axis gives the `*_virtual` metrics. For comparison, the classic
 * link-pair construction: extend the two upper links to their meeting point, the two lower
 * links likewise, and join the two virtual ball joints (where a pair does not meet, the
 * midpoint of the closest-approach segment stands in; its length, the "gap", is plotted).
 *
 * Writes a hand-made SVG (no dependency): KPI, caster, ground offset, mechanical trail,
 * pitch and the link-pair gaps along both sweeps, plus the axes themselves in side and
 * front view (the surface the virtual kingpin traces). Prints the numbers too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseGeometry } from '../../src/suspension/files';
import { SuspensionModel } from '../../src/suspension/build/model';
import {
  axisSegment, currentWheelFrames, steeringAxisRecords, steeringResponse, virtualSteeringMetrics, type SteeringAxisRecord,
} from '../../src/suspension/metrics/steering';
import { lineSteeringMetrics, linkPairAxis } from '../../src/suspension/metrics/instant-axis';
import { suspensionAssembly } from '../../src/suspension/build/template';

const out = process.argv[2] ?? new URL('./multilink-kingpin.svg', import.meta.url).pathname;
const geometry = parseGeometry(readFileSync(new URL('../suspension/multi_link.yaml', import.meta.url), 'utf8'));
const sm = new SuspensionModel(suspensionAssembly(geometry));
const corner = sm.corners[0];
const rackDesign = sm.design[sm.model.system.variables[sm.steering].offset];

interface Row {
  x: number;
  screw: { kpi: number; caster: number; offset: number; trail: number; pitch: number; rate: number };
  pair: { kpi: number; caster: number; offset: number; trail: number; gapLower: number; gapUpper: number } | null;
  record: SteeringAxisRecord;
  pairLine: { lower: number[]; upper: number[] } | null;
  contactZ: number;
}

function state(step: number, dz: number, rack: number, x: number): Row {
  corner.wheelCenterZ.target = corner.design.wheelCenterZ + dz;
  sm.rackHold!.target = rackDesign + rack;
  const report = sm.solveWith([corner.wheelCenterZ, sm.rackHold!]);
  if (!report.converged) throw new Error(`no solution at bump ${dz}, rack ${rack}`);
  const frame = currentWheelFrames(sm)[0];
  const response = steeringResponse(sm);
  const axis = response.axes[0];
  if (axis.status !== 'valid') throw new Error(`steering response ${axis.status}: ${axis.diagnostic}`);
  const v = virtualSteeringMetrics(sm, response, 0, frame);
  const lp = linkPairAxis(sm, 0);
  const pm = lp ? lineSteeringMetrics(sm, 0, lp.lower, lp.direction, frame) : null;
  return {
    x,
    screw: {
      kpi: v.kpi_virtual!, caster: v.caster_virtual!, offset: v.steering_axis_offset_ground_virtual!, trail: v.mechanical_trail_virtual!,
      pitch: axis.pitch!, rate: axis.angular_rate!,
    },
    pair: lp && pm ? { kpi: pm.kpi!, caster: pm.caster!, offset: pm.steering_axis_offset_ground!, trail: pm.mechanical_trail!, gapLower: lp.lowerGap, gapUpper: lp.upperGap } : null,
    record: steeringAxisRecords(response, step, { wheel_center_z: corner.wheelCenterZ.target, rack })[0],
    pairLine: lp ? { lower: lp.lower, upper: lp.upper } : null,
    contactZ: frame.contact.v[2],
  };
}

const N = 25;
const bump = Array.from({ length: N }, (_, k) => { const dz = -60 + (120 * k) / (N - 1); return state(k, dz, 0, dz); });
const steer = Array.from({ length: N }, (_, k) => { const r = -40 + (80 * k) / (N - 1); return state(k, 0, r, r); });

// ---------------------------------------------------------------------------------------
// Numbers.

const DEG = 180 / Math.PI;
const design = bump[(N - 1) / 2];
const fmt = (x: number, d = 3) => x.toFixed(d);
console.log('multi-link, damper-length hold, at design:');
console.log(`  screw axis: KPI ${fmt(design.screw.kpi)}°, caster ${fmt(design.screw.caster)}°, ground offset ${fmt(design.screw.offset)} mm, trail ${fmt(design.screw.trail)} mm, pitch ${fmt(design.screw.pitch)} mm/rad, angular rate ${fmt(design.screw.rate * DEG, 4)} °/mm of rack`);
if (design.pair) console.log(`  link pairs: KPI ${fmt(design.pair.kpi)}°, caster ${fmt(design.pair.caster)}°, ground offset ${fmt(design.pair.offset)} mm, trail ${fmt(design.pair.trail)} mm, gaps lower ${fmt(design.pair.gapLower)} upper ${fmt(design.pair.gapUpper)} mm`);
for (const [name, rows] of [['bump ±60 mm', bump], ['steer ±40 mm of rack', steer]] as const) {
  const range = (f: (r: Row) => number) => { const v = rows.map(f); return `${fmt(Math.min(...v))} … ${fmt(Math.max(...v))}`; };
  const maxDiff = (f: (r: Row) => number, g: (r: Row) => number) => fmt(Math.max(...rows.map((r) => Math.abs(f(r) - g(r)))));
  console.log(`${name}:`);
  console.log(`  pitch ${range((r) => r.screw.pitch)} mm/rad; angular rate ${range((r) => r.screw.rate * DEG)} °/mm`);
  console.log(`  KPI ${range((r) => r.screw.kpi)}°, caster ${range((r) => r.screw.caster)}°, ground offset ${range((r) => r.screw.offset)} mm, trail ${range((r) => r.screw.trail)} mm`);
  if (rows.every((r) => r.pair)) {
    console.log(`  screw − link pairs, largest: KPI ${maxDiff((r) => r.screw.kpi, (r) => r.pair!.kpi)}°, caster ${maxDiff((r) => r.screw.caster, (r) => r.pair!.caster)}°, ground offset ${maxDiff((r) => r.screw.offset, (r) => r.pair!.offset)} mm, trail ${maxDiff((r) => r.screw.trail, (r) => r.pair!.trail)} mm`);
    console.log(`  link-pair gaps: lower up to ${fmt(Math.max(...rows.map((r) => r.pair!.gapLower)))} mm, upper up to ${fmt(Math.max(...rows.map((r) => r.pair!.gapUpper)))} mm`);
  }
}

// ---------------------------------------------------------------------------------------
// SVG.

const W = 360, H = 150, M = { l: 56, r: 14, t: 26, b: 30 };
const RED = '#c0392b', GREY = '#555';

function niceTicks(lo: number, hi: number, n = 5): number[] {
  const span = hi - lo || 1;
  const step0 = span / n, mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((k) => k * mag).find((s) => span / s <= n) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9 * span; t += step) out.push(Math.abs(t) < 1e-12 ? 0 : t);
  return out;
}
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** One panel: series of (x, y) polylines. */
function panel(ox: number, oy: number, title: string, xLabel: string, series: { pts: [number, number][]; color: string; dash?: string; label: string }[]): string {
  const xs = series.flatMap((s) => s.pts.map((p) => p[0])), ys = series.flatMap((s) => s.pts.map((p) => p[1]));
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (y1 - y0 < 1e-6 * Math.max(1, Math.abs(y0))) { y0 -= 0.5; y1 += 0.5; }
  const pad = 0.06 * (y1 - y0); y0 -= pad; y1 += pad;
  if (x1 === x0) { x0 -= 1; x1 += 1; }
  const pw = W - M.l - M.r, ph = H - M.t - M.b;
  const X = (x: number) => ox + M.l + ((x - x0) / (x1 - x0)) * pw;
  const Y = (y: number) => oy + M.t + (1 - (y - y0) / (y1 - y0)) * ph;
  let s = `<g font-family="sans-serif" font-size="10">`;
  s += `<rect x="${ox + M.l}" y="${oy + M.t}" width="${pw}" height="${ph}" fill="#fff" stroke="#999"/>`;
  for (const t of niceTicks(y0, y1, 4)) s += `<line x1="${ox + M.l}" x2="${ox + M.l + pw}" y1="${Y(t)}" y2="${Y(t)}" stroke="#eee"/><text x="${ox + M.l - 4}" y="${Y(t) + 3}" text-anchor="end">${+t.toPrecision(6)}</text>`;
  for (const t of niceTicks(x0, x1, 6)) s += `<line x1="${X(t)}" x2="${X(t)}" y1="${oy + M.t}" y2="${oy + M.t + ph}" stroke="#eee"/><text x="${X(t)}" y="${oy + M.t + ph + 12}" text-anchor="middle">${+t.toPrecision(6)}</text>`;
  s += `<text x="${ox + M.l}" y="${oy + M.t - 8}" font-size="11" font-weight="bold">${esc(title)}</text>`;
  s += `<text x="${ox + M.l + pw / 2}" y="${oy + H - 4}" text-anchor="middle" fill="#444">${esc(xLabel)}</text>`;
  let ly = oy + M.t + 10;
  for (const ser of series) {
    const d = ser.pts.map((p, i) => `${i ? 'L' : 'M'}${X(p[0]).toFixed(2)},${Y(p[1]).toFixed(2)}`).join('');
    s += `<path d="${d}" fill="none" stroke="${ser.color}" stroke-width="1.6"${ser.dash ? ` stroke-dasharray="${ser.dash}"` : ''}/>`;
    s += `<text x="${ox + M.l + pw - 4}" y="${ly}" text-anchor="end" fill="${ser.color}">${esc(ser.label)}</text>`;
    ly += 11;
  }
  return s + '</g>';
}

type Metric = 'kpi' | 'caster' | 'offset' | 'trail';
const metricPanels: { key: Metric; title: string }[] = [
  { key: 'kpi', title: 'KPI (°)' },
  { key: 'caster', title: 'caster (°)' },
  { key: 'offset', title: 'ground offset (mm)' },
  { key: 'trail', title: 'mechanical trail (mm)' },
];

/** Axes in side view (x–z) or front view (y–z), each from its contact-patch height to 600 mm. */
function axesPanel(ox: number, oy: number, title: string, rows: Row[], view: 'side' | 'front'): string {
  const c = view === 'side' ? 0 : 1;
  const segs = rows.map((r) => axisSegment(r.record, r.contactZ, 600)!);
  const pairs = rows.map((r) => r.pairLine);
  const hs = [...segs.flatMap((s) => [s[0][c], s[1][c]]), ...pairs.flatMap((p) => (p ? [p.lower[c], p.upper[c]] : []))];
  const vs = [...segs.flatMap((s) => [s[0][2], s[1][2]])];
  let [h0, h1] = [Math.min(...hs), Math.max(...hs)], [v0, v1] = [Math.min(...vs), Math.max(...vs)];
  const span = Math.max(h1 - h0, v1 - v0) * 1.08, hc = (h0 + h1) / 2, vc = (v0 + v1) / 2;
  [h0, h1, v0, v1] = [hc - span / 2, hc + span / 2, vc - span / 2, vc + span / 2];
  const pw = W - M.l - M.r, ph = H * 2 - M.t - M.b;
  const k = Math.min(pw, ph) / span;
  const X = (h: number) => ox + M.l + (h - h0) * k, Y = (v: number) => oy + M.t + (v1 - v) * k;
  let s = `<g font-family="sans-serif" font-size="10">`;
  s += `<rect x="${ox + M.l}" y="${oy + M.t}" width="${span * k}" height="${span * k}" fill="#fff" stroke="#999"/>`;
  for (const t of niceTicks(h0, h1, 5)) s += `<text x="${X(t)}" y="${oy + M.t + span * k + 12}" text-anchor="middle">${+t.toPrecision(6)}</text>`;
  for (const t of niceTicks(v0, v1, 5)) s += `<text x="${ox + M.l - 4}" y="${Y(t) + 3}" text-anchor="end">${+t.toPrecision(6)}</text>`;
  s += `<text x="${ox + M.l}" y="${oy + M.t - 8}" font-size="11" font-weight="bold">${esc(title)}</text>`;
  s += `<text x="${ox + M.l + (span * k) / 2}" y="${oy + M.t + span * k + 24}" text-anchor="middle" fill="#444">${view === 'side' ? 'x (mm, forward)' : 'y (mm, left)'}</text>`;
  segs.forEach((sg, i) => {
    const a = i / (segs.length - 1);
    s += `<line x1="${X(sg[0][c]).toFixed(2)}" y1="${Y(sg[0][2]).toFixed(2)}" x2="${X(sg[1][c]).toFixed(2)}" y2="${Y(sg[1][2]).toFixed(2)}" stroke="${RED}" stroke-opacity="${(0.25 + 0.75 * a).toFixed(2)}" stroke-width="1"/>`;
  });
  for (const p of pairs) if (p) s += `<circle cx="${X(p.lower[c]).toFixed(2)}" cy="${Y(p.lower[2]).toFixed(2)}" r="1.6" fill="${GREY}"/><circle cx="${X(p.upper[c]).toFixed(2)}" cy="${Y(p.upper[2]).toFixed(2)}" r="1.6" fill="${GREY}"/>`;
  return s + '</g>';
}

const cols = [
  { rows: bump, xLabel: 'wheel-centre travel (mm), rack held', name: 'bump' },
  { rows: steer, xLabel: 'rack displacement (mm), wheel-centre height held', name: 'steer' },
];
let body = '';
let y = 40;
for (const { key, title } of metricPanels) {
  cols.forEach((col, ci) => {
    body += panel(ci * W, y, `${title}, ${col.name}`, col.xLabel, [
      { pts: col.rows.map((r) => [r.x, r.screw[key]]), color: RED, label: 'screw axis (damper-length hold)' },
      ...(col.rows.every((r) => r.pair) ? [{ pts: col.rows.map((r): [number, number] => [r.x, r.pair![key]]), color: GREY, dash: '5,3', label: 'link-pair construction' }] : []),
    ]);
  });
  y += H;
}
cols.forEach((col, ci) => {
  body += panel(ci * W, y, `screw pitch (mm/rad), ${col.name}`, col.xLabel, [{ pts: col.rows.map((r) => [r.x, r.screw.pitch]), color: RED, label: 'pitch' }]);
});
y += H;
cols.forEach((col, ci) => {
  if (!col.rows.every((r) => r.pair)) return;
  body += panel(ci * W, y, `link-pair gaps (mm), ${col.name}`, col.xLabel, [
    { pts: col.rows.map((r) => [r.x, r.pair!.gapLower]), color: '#2471a3', label: 'lower pair' },
    { pts: col.rows.map((r) => [r.x, r.pair!.gapUpper]), color: '#7d3c98', dash: '5,3', label: 'upper pair' },
  ]);
});
y += H;
cols.forEach((col, ci) => {
  body += axesPanel(ci * W, y, `axes, side view, ${col.name}`, col.rows, 'side');
  body += axesPanel(ci * W, y + 2 * H + 10, `axes, front view, ${col.name}`, col.rows, 'front');
});
y += 4 * H + 20;

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${y}" viewBox="0 0 ${2 * W} ${y}">
<rect width="100%" height="100%" fill="#fafafa"/>
<text x="12" y="18" font-family="sans-serif" font-size="13" font-weight="bold">Multi-link virtual kingpin: screw axis (red, damper-length hold) vs link-pair construction (grey)</text>
<text x="12" y="32" font-family="sans-serif" font-size="9.5" fill="#444">examples/suspension/multi_link.yaml. Axes drawn from the contact-patch height to 600 mm, darker = later step; grey dots: virtual ball joints.</text>
${body}
</svg>
`;
writeFileSync(out, svg);
console.log(`wrote ${out}`);
