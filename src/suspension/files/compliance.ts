/**
 * The `compliance:` section of a geometry file (../shared/design/compliance.md, docs/compliance.md):
 * bushings keyed by the pickup whose pivot they replace, and two-force links made axial
 * springs, keyed by link id. On an axle a key without a side applies to both corners (a
 * vector axis mirrored for the right one); `left.` or `right.` before it sets one side.
 * Every entry is checked against the topology the file describes: an unknown pickup or
 * link, a pickup no pivot uses, a link carrying another pickup, a bad stiffness or a zero
 * axis is refused with its path.
 */
import type { ProblemList } from './errors';
import { usesRocker, type Topology } from './hardpoints';
import { childPath, closestName, describe, isRecord, listChoices, quoted, type PlainRecord, type Point3 } from './read';
import type { ActuationType, SpringType } from './hardpoints';
import type { Devices } from './devices';

/** Stiffnesses (N/mm along, N·mm/deg about the bushing's axes) and the x axis of one bushing. */
export interface BushingSpec {
  axial: number;
  radial: number;
  torsional: number;
  conical: number;
  /** x axis: a vector in vehicle axes (already mirrored for a right corner) or a hardpoint it points at; default the pivot axis. */
  axis?: { vector: Point3 } | { toward: string };
  /** Per second, same names; used by `simulate`. */
  damping?: { axial: number; radial: number; torsional: number; conical: number };
  /** The file path of the entry (for messages). */
  path: string;
}

/** One corner's compliance. */
export interface CornerCompliance {
  bushings: Record<string, BushingSpec>;
  /** Axial stiffness (N/mm) per link id of this corner. */
  links: Record<string, number>;
  /** The file path each link's stiffness was read from (`compliance.links.trackrod`, `compliance.links.left.trackrod`): a parameter's name. */
  linkPaths?: Record<string, string>;
}

/** What `compliance:` reads as: per corner (geometry.corners order) and the axle's central links. */
export interface Compliance {
  corners: CornerCompliance[];
  center: Record<string, number>;
}

export interface ComplianceLayout {
  topology: Topology;
  actuation: { type: ActuationType; mount: string };
  spring: SpringType;
  devices?: Devices;
  corners: { side: string; hardpoints: Record<string, Point3> }[];
  isAxle: boolean;
}

const BUSHING_FIELDS = ['radial', 'axial', 'torsional', 'conical', 'axis', 'damping'] as const;
const RATE_FIELDS = ['radial', 'axial', 'torsional', 'conical'] as const;

/** The pickups a pivot uses on this layout: each may take a bushing. */
export function bushingPickups(layout: Pick<ComplianceLayout, 'topology' | 'actuation' | 'spring'>): string[] {
  const arms = (which: string) => [`${which}_inboard_front`, `${which}_inboard_rear`];
  const rocker = usesRocker(layout.actuation.type) && layout.spring !== 'torsion_bar' ? ['rocker_axis_a', 'rocker_axis_b'] : [];
  switch (layout.topology) {
    case 'double_wishbone': return [...arms('lower_wishbone'), ...arms('upper_wishbone'), ...rocker];
    case 'macpherson': return [...arms('lower_wishbone'), 'strut_top'];
    case 'trailing_arm': return layout.spring === 'torsion_bar' ? [] : ['trailing_arm_pivot_a', 'trailing_arm_pivot_b'];
    default: return [];
  }
}

/** The two-force links of one corner that may be made springs. */
export function cornerLinks(layout: ComplianceLayout, hardpoints: Record<string, Point3>): string[] {
  const out: string[] = [];
  if (['double_wishbone', 'macpherson', 'multi_link'].includes(layout.topology) && hardpoints.trackrod_inboard) out.push('trackrod');
  if (layout.topology === 'multi_link') out.push('upper_front_link', 'upper_rear_link', 'lower_front_link', 'lower_rear_link');
  if (layout.topology === 'double_wishbone' && usesRocker(layout.actuation.type)) out.push('pushrod');
  if (layout.devices && (layout.devices.anti_roll === 'u_bar' || layout.devices.anti_roll === 't_bar')) out.push('droplink');
  if (layout.topology === 'solid_axle') {
    out.push('lower_link');
    if (layout.devices?.beam?.locating === 'four_link') out.push('upper_link');
  }
  return out;
}

/** The axle's central links (one, not per side). */
export function centerLinks(layout: ComplianceLayout): string[] {
  const beam = layout.devices?.beam;
  if (layout.topology !== 'solid_axle' || !beam) return [];
  const out: string[] = [];
  if (beam.locating !== 'four_link') out.push('upper_link');
  if (beam.locating === 'panhard') out.push('panhard');
  if (beam.locating === 'watts') out.push('watts_top_rod', 'watts_bottom_rod');
  return out;
}

/** Read `compliance:`; undefined when the file has none. Problems go to `problems`. */
export function readCompliance(problems: ProblemList, raw: unknown, layout: ComplianceLayout): Compliance | undefined {
  if (raw === undefined) return undefined;
  const path = 'compliance';
  if (!isRecord(raw)) { problems.add(path, `expected a mapping { bushings, links }, got ${describe(raw)}`); return undefined; }
  for (const key of Object.keys(raw)) {
    if (key === 'bushings' || key === 'links') continue;
    const near = closestName(key, ['bushings', 'links']);
    problems.add(childPath(path, key), `unknown field${near ? ` (did you mean ${near}?)` : ''} (expected bushings, links): refused rather than ignored`);
  }
  const out: Compliance = { corners: layout.corners.map(() => ({ bushings: {}, links: {} })), center: {} };
  const sides = layout.corners.map((c) => c.side);
  /** The corners a key applies to and the name without its side. */
  const split = (key: string, at: string): { name: string; corners: number[]; sided: boolean } | undefined => {
    const m = /^(left|right)\.(.+)$/.exec(key);
    if (!m) return { name: key, corners: sides.map((_, i) => i), sided: false };
    if (!layout.isAxle) { problems.add(at, `a corner file has one side: write "${m[2]}" without "${m[1]}."`); return undefined; }
    const i = sides.indexOf(m[1]);
    return { name: m[2], corners: [i], sided: true };
  };
  const bushings = raw.bushings;
  if (bushings !== undefined) {
    if (!isRecord(bushings)) problems.add(childPath(path, 'bushings'), `expected a mapping of pickup to bushing, got ${describe(bushings)}`);
    else {
      const pivots = bushingPickups(layout);
      for (const [key, value] of sidedLast(bushings)) {
        const at = childPath(childPath(path, 'bushings'), key);
        const s = split(key, at);
        if (!s) continue;
        if (!pivots.includes(s.name)) { problems.add(at, unusedPickup(s.name, pivots, layout)); continue; }
        for (const i of s.corners) {
          const spec = readBushing(problems, value, at, layout.corners[i].hardpoints, !s.sided && layout.corners[i].side === 'right');
          if (spec) out.corners[i].bushings[s.name] = spec;
        }
      }
    }
  }
  const links = raw.links;
  if (links !== undefined) {
    if (!isRecord(links)) problems.add(childPath(path, 'links'), `expected a mapping of link id to its axial stiffness (N/mm), got ${describe(links)}`);
    else readLinks(problems, links, childPath(path, 'links'), layout, out, split);
  }
  return out;
}

/** Entries without a side first: a `left.`/`right.` entry then sets its side over them, whatever the file's order. */
function sidedLast(raw: PlainRecord): [string, unknown][] {
  const sided = (k: string) => /^(left|right)\./.test(k);
  return [...Object.entries(raw).filter(([k]) => !sided(k)), ...Object.entries(raw).filter(([k]) => sided(k))];
}

function unusedPickup(name: string, pivots: string[], layout: ComplianceLayout): string {
  const all = new Set(layout.corners.flatMap((c) => Object.keys(c.hardpoints)));
  const where = pivots.length ? ` (bushings go at ${listChoices(pivots)})` : ` (a ${layout.topology} has no pivot to put a bushing at; its two-force links take compliance.links)`;
  if (all.has(name)) return `no pivot uses this pickup${where}`;
  const near = closestName(name, pivots);
  return `no pickup "${name}" on a ${layout.topology}${near ? ` (did you mean ${near}?)` : where}`;
}

function readRates(problems: ProblemList, raw: PlainRecord, path: string, required: readonly string[]): Record<(typeof RATE_FIELDS)[number], number> | undefined {
  const out = { radial: 0, axial: 0, torsional: 0, conical: 0 };
  let ok = true;
  for (const f of RATE_FIELDS) {
    const v = raw[f];
    if (v === undefined) { if (required.includes(f)) { problems.add(childPath(path, f), 'missing stiffness'); ok = false; } continue; }
    if (typeof v !== 'number' || !Number.isFinite(v)) { problems.add(childPath(path, f), `expected a finite number, got ${quoted(v)}`); ok = false; continue; }
    if (v < 0) { problems.add(childPath(path, f), `must be ≥ 0 (got ${v})`); ok = false; continue; }
    out[f] = v;
  }
  return ok ? out : undefined;
}

function readBushing(problems: ProblemList, raw: unknown, path: string, hardpoints: Record<string, Point3>, mirror: boolean): BushingSpec | undefined {
  if (!isRecord(raw)) { problems.add(path, `expected a mapping { radial, axial, torsional?, conical?, axis?, damping? } (N/mm, N·mm/deg), got ${describe(raw)}`); return undefined; }
  const misspelt = new Set<string>();
  for (const key of Object.keys(raw)) {
    if ((BUSHING_FIELDS as readonly string[]).includes(key)) continue;
    const near = closestName(key, BUSHING_FIELDS);
    if (near) misspelt.add(near);
    problems.add(childPath(path, key), `unknown field${near ? ` (did you mean ${near}?)` : ''} (expected ${listChoices(BUSHING_FIELDS)})`);
  }
  // a misspelt stiffness is reported once, as the typo, not again as missing
  const rates = readRates(problems, raw, path, ['radial', 'axial'].filter((f) => !misspelt.has(f)));
  if (!rates) return undefined;
  if (rates.radial === 0 && rates.axial === 0 && rates.torsional === 0 && rates.conical === 0) { problems.add(path, 'zero stiffness along every direction: a bushing must carry something'); return undefined; }
  const spec: BushingSpec = { ...rates, path };
  if (raw.axis !== undefined) {
    const a = raw.axis, ap = childPath(path, 'axis');
    if (typeof a === 'string') {
      if (!hardpoints[a]) { const near = closestName(a, Object.keys(hardpoints)); problems.add(ap, `no hardpoint "${a}"${near ? ` (did you mean ${near}?)` : ''}`); return undefined; }
      spec.axis = { toward: a };
    } else if (Array.isArray(a) && a.length === 3 && a.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      if (Math.hypot(a[0], a[1], a[2]) === 0) { problems.add(ap, 'an axis of zero length'); return undefined; }
      spec.axis = { vector: [a[0], mirror ? -a[1] : a[1], a[2]] };
    } else { problems.add(ap, `expected [x, y, z] (vehicle axes) or a hardpoint name, got ${describe(a)}`); return undefined; }
  }
  if (raw.damping !== undefined) {
    const dp = childPath(path, 'damping');
    if (!isRecord(raw.damping)) { problems.add(dp, `expected a mapping of radial, axial, torsional, conical (per second), got ${describe(raw.damping)}`); return undefined; }
    for (const key of Object.keys(raw.damping)) if (!(RATE_FIELDS as readonly string[]).includes(key)) problems.add(childPath(dp, key), `unknown field (expected ${listChoices(RATE_FIELDS)})`);
    const d = readRates(problems, raw.damping, dp, []);
    if (!d) return undefined;
    spec.damping = d;
  }
  return spec;
}

function readLinks(problems: ProblemList, raw: PlainRecord, path: string, layout: ComplianceLayout, out: Compliance,
  split: (key: string, at: string) => { name: string; corners: number[]; sided: boolean } | undefined): void {
  const center = centerLinks(layout);
  for (const [key, value] of sidedLast(raw)) {
    const at = childPath(path, key);
    const s = split(key, at);
    if (!s) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) { problems.add(at, `expected the link's axial stiffness (N/mm), a finite number, got ${quoted(value)}`); continue; }
    if (!(value > 0)) { problems.add(at, `must be > 0 N/mm (got ${value}); leave the link out to keep it rigid`); continue; }
    if (!s.sided && center.includes(s.name)) { out.center[s.name] = value; continue; }
    const known = new Set(layout.corners.flatMap((c) => cornerLinks(layout, c.hardpoints)));
    if (!known.has(s.name)) {
      const near = closestName(s.name, [...known, ...center]);
      problems.add(at, `no link "${s.name}" on this ${layout.topology}${near ? ` (did you mean ${near}?)` : known.size ? ` (links: ${listChoices([...known, ...center])})` : ''}`);
      continue;
    }
    const carried = layout.topology === 'multi_link' && layout.actuation.mount === s.name && layout.corners.some((c) => c.hardpoints.strut_bottom);
    if (carried) { problems.add(at, `the ${s.name} carries strut_bottom (the spring's lower end), so it is not a two-force link and cannot be a spring`); continue; }
    for (const i of s.corners) { out.corners[i].links[s.name] = value; (out.corners[i].linkPaths ??= {})[s.name] = at; }
  }
}
