/**
 * The loads panel (issue 12 item 7): the load case at every contact patch, in ISO 8855
 * vehicle axes (x forward, y left, z up) — as g-levels of a corner mass (vertical,
 * braking, traction, cornering) or as forces and moments — whether the link forces are
 * drawn, and the read-outs of the loads at the pose shown: wheel rate, motion ratio,
 * spring, pad and rack forces, the axle's heave/roll rates and roll stiffness, every link
 * force and every joint's reaction. The load case is a view setting, not part of the
 * document (no undo entry), like the plots' choices. DOM only: the loads are the
 * presenter's (viewer/src/loads.ts).
 */
import type { PoseResult } from '../../src/index.ts';
import { LOAD_METRICS, type LoadCase } from '../../src/index.ts';
import { formatForce, linkForceStyle, TENSION_COLOR, COMPRESSION_COLOR } from './force-style';
import { metricRows } from './panels';

export type LoadMode = 'none' | 'g' | 'force';

/** The panel's inputs: g-levels (corner mass kg, g) and forces (N) and moments (N·m) at the contact centre. */
export interface LoadInputs {
  mode: LoadMode;
  corner_mass: number;
  bump_g: number;
  braking_g: number;
  traction_g: number;
  cornering_g: number;
  force: [number, number, number];
  moment: [number, number, number];
}

export const DEFAULT_LOADS: LoadInputs = { mode: 'g', corner_mass: 300, bump_g: 0, braking_g: 0, traction_g: 0, cornering_g: 0, force: [0, 0, 3000], moment: [0, 0, 0] };

/** The library's load case (every corner alike) for the panel's inputs; moments N·m → N·mm. */
export function loadCaseOf(inputs: LoadInputs): LoadCase {
  if (inputs.mode === 'none') return {};
  if (inputs.mode === 'force') return { each: { force: [...inputs.force], moment: inputs.moment.map((m) => m * 1000) as [number, number, number] } };
  return { each: { corner_mass: inputs.corner_mass, bump_g: inputs.bump_g, braking_g: inputs.braking_g, traction_g: inputs.traction_g, cornering_g: inputs.cornering_g } };
}

const G_FIELDS: [keyof LoadInputs, string, string][] = [
  ['corner_mass', 'Corner mass', 'kg'], ['bump_g', 'Vertical (+bump)', 'g'], ['braking_g', 'Braking', 'g'], ['traction_g', 'Traction', 'g'], ['cornering_g', 'Cornering (+left)', 'g'],
];
const FORCE_FIELDS: [string, string, string][] = [
  ['force.0', 'Fx', 'N'], ['force.1', 'Fy', 'N'], ['force.2', 'Fz', 'N'], ['moment.0', 'Mx', 'N·m'], ['moment.1', 'My', 'N·m'], ['moment.2', 'Mz', 'N·m'],
];

const hex = (c: number) => `#${c.toString(16).padStart(6, '0')}`;

export class LoadsPanel {
  inputs: LoadInputs = structuredClone(DEFAULT_LOADS);
  /** Whether the link forces are drawn on the linkage. */
  drawForces = true;
  private readonly body: HTMLElement;
  private readonly readouts: HTMLTableElement;
  private readonly links: HTMLTableElement;

  constructor(readonly panel: HTMLElement, private readonly onChange: () => void) {
    this.body = panel.querySelector<HTMLElement>('#loads-body') ?? panel;
    const num = (id: string, label: string, unit: string, value: number) => `<label style="display:flex;gap:6px;align-items:center;margin:2px 0"><span style="flex:1">${label}</span><input id="${id}" type="number" step="any" value="${value}" style="width:6.5em" /><span style="width:2.6em">${unit}</span></label>`;
    this.body.innerHTML = `
      <div class="row"><label title="Sleeves over the links: blue tension, red compression, wider for more force; labels in N"><input id="loads-draw" type="checkbox" ${this.drawForces ? 'checked' : ''} /> Draw link forces</label>
        <span class="legend"><span style="color:${hex(TENSION_COLOR)}">■ tension</span> <span style="color:${hex(COMPRESSION_COLOR)}">■ compression</span></span></div>
      <div class="row" title="Applied at every contact centre, in ISO 8855 vehicle axes: x forward, y left, z up">Load case <select id="loads-mode"><option value="g">g-levels × corner mass</option><option value="force">forces and moments</option><option value="none">none (springs only)</option></select></div>
      <div id="loads-g" class="grid">${G_FIELDS.map(([k, l, u]) => num(`loads-${k}`, l, u, this.inputs[k] as number)).join('')}</div>
      <div id="loads-force" class="grid" hidden>${FORCE_FIELDS.map(([k, l, u]) => { const [f, i] = k.split('.'); return num(`loads-${f}-${i}`, l, u, (this.inputs[f as 'force' | 'moment'])[Number(i)]); }).join('')}</div>
      <table id="loads-readouts"></table>
      <details id="loads-links-details"><summary>Link forces and joint reactions</summary><table id="loads-links"></table></details>`;
    this.readouts = this.body.querySelector('#loads-readouts')!;
    this.links = this.body.querySelector('#loads-links')!;
    const mode = this.body.querySelector<HTMLSelectElement>('#loads-mode')!;
    mode.value = this.inputs.mode;
    mode.addEventListener('change', () => { this.inputs.mode = mode.value as LoadMode; this.showMode(); this.onChange(); mode.blur(); });
    this.body.querySelector<HTMLInputElement>('#loads-draw')!.addEventListener('change', (e) => { this.drawForces = (e.target as HTMLInputElement).checked; this.onChange(); });
    this.body.querySelectorAll<HTMLInputElement>('#loads-g input, #loads-force input').forEach((input) => input.addEventListener('change', () => this.onInput(input)));
    this.showMode();
    // opening the panel asks for the loads, closing it stops them
    panel.addEventListener('toggle', () => this.onChange());
  }

  private showMode(): void {
    this.body.querySelector<HTMLElement>('#loads-g')!.hidden = this.inputs.mode !== 'g';
    this.body.querySelector<HTMLElement>('#loads-force')!.hidden = this.inputs.mode !== 'force';
  }

  /** A typed value: a finite number (a corner mass above 0) is taken, anything else put back. */
  private onInput(input: HTMLInputElement): void {
    const key = input.id.slice('loads-'.length);
    const value = Number(input.value);
    const [field, index] = key.split('-');
    const old = index !== undefined ? this.inputs[field as 'force' | 'moment'][Number(index)] : (this.inputs[field as keyof LoadInputs] as number);
    if (input.value.trim() === '' || !Number.isFinite(value) || (field === 'corner_mass' && !(value > 0))) { input.value = String(old); return; }
    if (index !== undefined) this.inputs[field as 'force' | 'moment'][Number(index)] = value;
    else (this.inputs as unknown as Record<string, number>)[field] = value;
    this.onChange();
  }

  /** Sets the inputs (tests, a saved view) and asks for the loads again. */
  set(inputs: Partial<LoadInputs>): void {
    this.inputs = { ...this.inputs, ...structuredClone(inputs) };
    const mode = this.body.querySelector<HTMLSelectElement>('#loads-mode')!;
    mode.value = this.inputs.mode;
    for (const [k] of G_FIELDS) this.body.querySelector<HTMLInputElement>(`#loads-${k}`)!.value = String(this.inputs[k]);
    for (const [k] of FORCE_FIELDS) { const [f, i] = k.split('.'); this.body.querySelector<HTMLInputElement>(`#loads-${f}-${i}`)!.value = String(this.inputs[f as 'force' | 'moment'][Number(i)]); }
    this.showMode();
    this.onChange();
  }

  loadCase(): LoadCase {
    return loadCaseOf(this.inputs);
  }

  /**
   * The load case while the panel is open, else null: the loads of a pose cost a model of
   * their own per edited document, which a drag pays at every move, so they are computed
   * (and drawn) only when asked for.
   */
  activeLoadCase(): LoadCase | null {
    return (this.panel as HTMLDetailsElement).open ? this.loadCase() : null;
  }

  /** The read-outs of a pose's loads (the panel is shown for suspensions only). */
  render(r: PoseResult): void {
    this.panel.hidden = !r.suspension;
    const loads = r.loads;
    if (!r.suspension || !loads) return;
    this.readouts.innerHTML = metricRows(LOAD_METRICS, r, 'load');
    const largest = Math.max(0, ...Object.values(loads.links).map(Math.abs));
    const rows = Object.entries(loads.links).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
      .map(([id, t]) => `<tr><td>${id.replace(/_/g, ' ')}</td><td class="v" data-link="${id}" style="color:${hex(linkForceStyle(t, largest).color)}">${formatForce(t)}</td></tr>`);
    const joints = Object.entries(loads.joints).map(([id, w]) => `<tr><td>${id.replace(/_/g, ' ')}</td><td class="v" data-joint="${id}" title="force on ${w.on}: [${w.force.map((x) => x.toFixed(0)).join(', ')}] N">|F| ${formatForce(Math.hypot(...w.force)).replace('+', '')}</td></tr>`);
    this.links.innerHTML = rows.join('') + (joints.length ? `<tr><td colspan="2"><i>Reactions (on the b part)</i></td></tr>${joints.join('')}` : '');
  }
}
