/**
 * The report page: one self-contained HTML document (inline CSS, inline SVG charts, the
 * sweep's CSV as a data: link), no script and nothing fetched, so it opens offline and can
 * be filed or mailed as one file. Every number shown carries its exact value in a
 * `data-value` attribute (what the table shows is rounded).
 */

export interface ReportInput {
  readonly title: string;
  /** The geometry's file name. */
  readonly source: string;
  readonly baselineSource?: string;
  /** One line saying what was swept. */
  readonly sweep: string;
  /** Hardpoints (mm), with the baseline's where it has the same point. */
  readonly hardpoints: readonly { name: string; position: readonly [number, number, number] | null; baseline?: readonly [number, number, number] }[];
  /** Metrics at design. */
  readonly keyMetrics: readonly { name: string; label: string; unit: string; value: number; baseline?: number }[];
  /** Charts as SVG documents, each with a heading. */
  readonly charts: readonly { title: string; svg: string }[];
  /** One line per problem found in the sweep; empty when there is none. */
  readonly diagnostics: readonly string[];
  /** The sweep as CSV (as `kinemate sweep --format csv` writes it) and the download's file name. */
  readonly csv: string;
  readonly csvName: string;
  /** With `compliance:`: the zero-load K&C coefficients per side and the K&C curves (docs/compliance.md). */
  readonly kc?: { readonly coefficients: readonly { side: string; values: Readonly<Record<string, number | null>> }[]; readonly charts: readonly { title: string; svg: string }[] };
}

/** The K&C coefficients in the table's order, with their units. */
const KC_COEFFICIENTS: readonly [string, string][] = [
  ['toe_per_fy', 'deg/kN'], ['camber_per_fy', 'deg/kN'], ['lateral_stiffness', 'N/mm'], ['toe_per_fx', 'deg/kN'], ['camber_per_fx', 'deg/kN'],
  ['recession_per_fx', 'mm/kN'], ['longitudinal_stiffness', 'N/mm'], ['toe_per_mz', 'deg/kN·m'], ['camber_per_mz', 'deg/kN·m'],
];

/** The K&C section: coefficients at zero load (a column per side) and the curves against load; empty without compliance. */
function kcSection(kc: ReportInput['kc']): string {
  if (!kc) return '';
  const head = kc.coefficients.map((c) => `<th>${escapeHtml(c.side)}</th>`).join('');
  const rows = KC_COEFFICIENTS.map(([name, unit]) => `<tr data-coefficient="${name}"><td>${name}</td><td class="muted">${unit}</td>${kc.coefficients.map((c) => {
    const v = c.values[name];
    return `<td>${typeof v === 'number' ? num(v, 4) : '—'}</td>`;
  }).join('')}</tr>`).join('\n');
  const charts = kc.charts.map((c) => `<figure><figcaption>${escapeHtml(c.title)}</figcaption>\n${stripXmlProlog(c.svg)}\n</figure>`).join('\n');
  return `<h2>Compliance (K&amp;C)</h2>
<p>Coefficients at zero load, exact derivatives of the equilibrium (docs/compliance.md); loads in vehicle axes on both sides.</p>
<table id="kc-coefficients">
<thead><tr><th>coefficient</th><th>unit</th>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
${charts}

`;
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #1b1b1b; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 0.2em 0.7em; text-align: right; border-bottom: 1px solid #eee; }
th:first-child, td:first-child { text-align: left; }
td.changed { background: #fff3d6; }
.delta { color: #9a5b00; }
figure { margin: 1em 0; } figcaption { font-weight: 600; margin-bottom: 0.3em; }
figure svg { max-width: 100%; height: auto; }
ul.diagnostics li { color: #8a1c1c; }
.muted { color: #666; }
`;

/** The report as an HTML document. */
export function reportHtml(input: ReportInput): string {
  const comparing = input.baselineSource !== undefined;
  const hardpointRows = input.hardpoints.map((row) => {
    if (row.position === null) {
      return `<tr><td>${escapeHtml(row.name)}</td><td colspan="3" class="muted">only in the baseline (${row.baseline!.map((v) => v.toFixed(3)).join(', ')})</td></tr>`;
    }
    const cells = row.position.map((v, k) => {
      const base = row.baseline?.[k];
      const delta = base === undefined ? null : v - base;
      const changed = delta !== null && delta !== 0;
      return `<td${changed ? ' class="changed"' : ''}>${num(v, 3)}${comparing ? ` <span class="delta">${delta === null ? '—' : delta === 0 ? '' : signed(delta, 3)}</span>` : ''}</td>`;
    }).join('');
    return `<tr><td>${escapeHtml(row.name)}</td>${cells}</tr>`;
  }).join('\n');
  const metricRows = input.keyMetrics.map((m) => {
    const base = comparing ? (m.baseline === undefined ? '<td>—</td><td></td>' : `<td>${num(m.baseline, 4)}</td><td class="delta">${signed(m.value - m.baseline, 4)}</td>`) : '';
    return `<tr data-metric="${escapeHtml(m.name)}"><td>${escapeHtml(m.label)}</td><td class="muted">${escapeHtml(m.unit)}</td><td>${num(m.value, 4)}</td>${base}</tr>`;
  }).join('\n');
  const charts = input.charts.map((c) => `<figure><figcaption>${escapeHtml(c.title)}</figcaption>\n${stripXmlProlog(c.svg)}\n</figure>`).join('\n');
  const diagnostics = input.diagnostics.length === 0
    ? '<p id="diagnostics">No problems: every step solved, no branch jumps, the steering axis valid throughout.</p>'
    : `<ul id="diagnostics" class="diagnostics">${input.diagnostics.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>`;
  const csvLink = `data:text/csv;charset=utf-8,${encodeURIComponent(input.csv)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(input.title)}</h1>
<p>Geometry <b>${escapeHtml(input.source)}</b>${comparing ? `, compared with the baseline <b>${escapeHtml(input.baselineSource!)}</b> (its curves dashed, differences shown as current − baseline)` : ''}. Sweep: ${escapeHtml(input.sweep)}. Millimetres and degrees, ISO 8855 axes (x forward, y left, z up).</p>

<h2>Hardpoints</h2>
<table id="hardpoints">
<thead><tr><th>point</th><th>x (mm)</th><th>y (mm)</th><th>z (mm)</th></tr></thead>
<tbody>
${hardpointRows}
</tbody>
</table>

<h2>Key metrics at design</h2>
<table id="key-metrics">
<thead><tr><th>metric</th><th>unit</th><th>${escapeHtml(input.source)}</th>${comparing ? `<th>${escapeHtml(input.baselineSource!)}</th><th>difference</th>` : ''}</tr></thead>
<tbody>
${metricRows}
</tbody>
</table>

<h2>Curves</h2>
${charts}

${kcSection(input.kc)}<h2>Diagnostics</h2>
${diagnostics}

<h2>Data</h2>
<p><a id="csv" download="${escapeHtml(input.csvName)}" href="${escapeHtml(csvLink)}">Download the sweep as CSV (${escapeHtml(input.csvName)})</a>: one row per step, one column per driver and metric, as <code>kinemate sweep --format csv</code> writes it.</p>
</body>
</html>
`;
}

/** A number rounded for reading, its exact value in data-value. */
function num(value: number, digits: number): string {
  return `<span data-value="${String(value)}">${value.toFixed(digits)}</span>`;
}

/** A difference with its sign; one too small to show at `digits` is a plain 0 (no −0.0000). */
function signed(value: number, digits: number): string {
  if (Math.abs(value) < 0.5 * 10 ** -digits) return (0).toFixed(digits);
  const text = value.toFixed(digits);
  return value > 0 ? `+${text}` : text;
}

function stripXmlProlog(svg: string): string {
  return svg.replace(/^<\?xml[^>]*>\s*/, '');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
