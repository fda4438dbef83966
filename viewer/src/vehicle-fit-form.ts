/**
 * The vehicle design section's Fit form (docs/vehicle.md, "Viewer"): one target or several at
 * once (a figure and the value wanted each, or a range — min and/or max, the value then unused —
 * and a weight, as `kinemate fit`'s targets file has them; "+ target" adds one, × drops one), the pickups
 * that may move (the rear's, the front's, both axles' or none; z or x, y and z; within ±box
 * mm) and, ticked, the axles' spring and anti-roll bar rates and their bushings' and compliant
 * links' rates (`compliance:`) within ± a percentage of their values. It reads the form into the request vehicle-design.worker.ts hands to
 * `fitVehicleDocument` (src/live/vehicle/design-fit.ts, `kinemate fit`'s vehicle fit).
 */
import { vehicleRateNames, type VehicleDocument, type VehicleFitRequest, type VehicleFitTargetRequest, type VehicleHardpoint, type VehicleLiveFrame } from '../../src/index.ts';

/** A figure's value on the car shown, where the panel has it (the frequencies it has not: null). */
export function figureValue(frame: VehicleLiveFrame | null, metric: string): number | null {
  const f = frame?.figures;
  if (!f) return null;
  const corner = /^vehicle\.(front_left|front_right|rear_left|rear_right)\.(contact_load|ride_height)$/.exec(metric);
  if (corner) { const c = f.corners[corner[1] as 'front_left']; return corner[2] === 'contact_load' ? c.load : c.ride_height; }
  const direct: Record<string, number | null> = {
    'vehicle.roll_gradient': f.roll_gradient, 'vehicle.lateral_load_transfer.front': f.lateral_load_transfer.front,
    'vehicle.lateral_load_transfer.rear': f.lateral_load_transfer.rear, 'vehicle.front_load_transfer_share': f.front_load_transfer_share,
    'vehicle.pitch_gradient': f.pitch_gradient, 'vehicle.understeer_gradient': f.understeer_gradient,
  };
  return direct[metric] ?? null;
}

export class VehicleFitForm {
  readonly root: HTMLElement;
  private readonly targets: HTMLElement;

  constructor(private readonly options: string, private readonly frame: () => VehicleLiveFrame | null, onRun: () => void) {
    this.root = document.createElement('div');
    this.root.id = 'vehicle-fit';
    this.root.innerHTML = `<div id="vehicle-fit-targets"></div>
      <div class="row"><button id="vehicle-fit-add" title="Another figure to meet at the same time">+ target</button></div>
      <div class="row"><label title="The pickups the fit may move (locked: with their mirrors)">moving <select id="vehicle-fit-axle"><option value="rear">rear pickups</option><option value="front">front pickups</option><option value="both">both axles' pickups</option><option value="none">no pickups</option></select></label>
        <select id="vehicle-fit-axes"><option value="z">z</option><option value="xyz">x, y, z</option></select> ± <input id="vehicle-fit-box" type="number" value="20" min="0" size="4" /> mm</div>
      <div class="row"><label title="The axles' spring and anti-roll bar rates may change too, each within ± this share of its value"><input id="vehicle-fit-rates" type="checkbox" /> and the spring and bar rates</label> ± <input id="vehicle-fit-rate-box" type="number" value="50" min="1" max="99" size="3" /> %
</div>
      <div class="row"><label title="The bushings' and compliant links' rates of the axle files' compliance: may change too, within the same ± share of each value"><input id="vehicle-fit-bushings" type="checkbox" /> and the bushings' rates</label>
        <button id="vehicle-fit-run">Fit</button></div>`;
    this.targets = this.root.querySelector('#vehicle-fit-targets')!;
    this.addTarget('vehicle.roll_gradient');
    this.root.querySelector('#vehicle-fit-add')!.addEventListener('click', () => this.addTarget());
    this.root.querySelector('#vehicle-fit-run')!.addEventListener('click', onRun);
  }

  /**
   * A target: its figure and value (the first keeps the ids #vehicle-fit-metric and
   * #vehicle-fit-value), and under it the range and weight (#vehicle-fit-min, -max, -weight).
   */
  addTarget(metric?: string): void {
    const first = this.targets.children.length === 0;
    const id = (name: string) => (first ? ` id="vehicle-fit-${name}"` : '');
    const group = document.createElement('div');
    group.className = 'vehicle-fit-target-group';
    group.innerHTML = `<div class="row vehicle-fit-target"><label>${first ? 'Fit' : 'and'} <select class="fit-metric"${id('metric')}>${this.options}</select></label> to <input class="fit-value"${id('value')} type="number" step="any" size="7" />${first ? '' : ' <button class="fit-remove" title="Drop this target">×</button>'}</div>
      <div class="row vehicle-fit-range" title="A range instead of a value: the fit only needs the figure inside it (either end may stay empty); the weight scales this target's miss against the others'">or within <input class="fit-min"${id('min')} type="number" step="any" placeholder="min" /> … <input class="fit-max"${id('max')} type="number" step="any" placeholder="max" />, weight <input class="fit-weight"${id('weight')} type="number" step="any" min="0" value="1" /></div>`;
    const select = group.querySelector('select')!, input = group.querySelector<HTMLInputElement>('.fit-value')!;
    if (metric) select.value = metric;
    else select.selectedIndex = Math.min(this.targets.children.length, select.options.length - 1);
    select.addEventListener('change', () => { input.value = ''; this.fillValues(); });
    // a range given: the value is not used (shown greyed)
    const ranged = () => { input.disabled = ['.fit-min', '.fit-max'].some((c) => group.querySelector<HTMLInputElement>(c)!.value.trim() !== ''); };
    group.querySelectorAll('.fit-min, .fit-max').forEach((e) => e.addEventListener('input', ranged));
    group.querySelector('.fit-remove')?.addEventListener('click', () => group.remove());
    this.targets.appendChild(group);
    this.fillValues();
  }

  /** Empty value fields take their figure's value on the car shown (a starting point to edit). */
  fillValues(): void {
    for (const group of Array.from(this.targets.querySelectorAll('.vehicle-fit-target-group'))) {
      const input = group.querySelector<HTMLInputElement>('.fit-value')!, v = figureValue(this.frame(), group.querySelector('select')!.value);
      if (input.value === '' && v !== null) input.value = String(Number(v.toPrecision(6)));
    }
  }

  /** The targets the form says (a range where min or max is given, else the value), or what is wrong. */
  private readTargets(): VehicleFitTargetRequest[] | string {
    const out: VehicleFitTargetRequest[] = [];
    for (const group of Array.from(this.targets.querySelectorAll('.vehicle-fit-target-group'))) {
      const metric = group.querySelector('select')!.value;
      const field = (c: string) => { const t = group.querySelector<HTMLInputElement>(c)!.value.trim(); return t === '' ? undefined : Number(t); };
      const [value, min, max, weight] = ['.fit-value', '.fit-min', '.fit-max', '.fit-weight'].map(field);
      const ranged = min !== undefined || max !== undefined;
      if (!ranged && (value === undefined || !Number.isFinite(value))) return `Give the value wanted for ${metric}, or a range.`;
      if ([min, max, weight].some((x) => x !== undefined && !Number.isFinite(x))) return `Give numbers for ${metric}'s range and weight.`;
      if (min !== undefined && max !== undefined && min > max) return `${metric}: the range's min ${min} is above its max ${max}.`;
      if (weight !== undefined && !(weight > 0)) return `${metric}: give a weight above 0.`;
      out.push({ metric, ...(ranged ? { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } : { value }), ...(weight !== undefined && weight !== 1 ? { weight } : {}) });
    }
    return out;
  }

  /** The request the form says, or what is missing. */
  request(doc: VehicleDocument, locked: boolean): VehicleFitRequest | string {
    const frame = this.frame();
    if (!frame) return 'no car solved yet';
    const targets = this.readTargets();
    if (typeof targets === 'string') return targets;
    const box = Number(this.root.querySelector<HTMLInputElement>('#vehicle-fit-box')!.value);
    const axle = this.root.querySelector<HTMLSelectElement>('#vehicle-fit-axle')!.value;
    if (axle !== 'none' && !(box > 0)) return 'Give a box above 0 mm.';
    const axes = this.root.querySelector<HTMLSelectElement>('#vehicle-fit-axes')!.value === 'z' ? ['z' as const] : ['x' as const, 'y' as const, 'z' as const];
    const pickups: VehicleHardpoint[] = axle === 'none' ? [] : Object.values(frame.handles).filter((h) => axle === 'both' || h.axle === axle);
    const withRates = this.root.querySelector<HTMLInputElement>('#vehicle-fit-rates')!.checked;
    const percent = Number(this.root.querySelector<HTMLInputElement>('#vehicle-fit-rate-box')!.value);
    const withBushings = this.root.querySelector<HTMLInputElement>('#vehicle-fit-bushings')!.checked;
    if ((withRates || withBushings) && !(percent > 0 && percent < 100)) return 'Give the rates\' box as a percentage between 0 and 100.';
    const rates = [...(withRates ? vehicleRateNames(doc, 'device') : []), ...(withBushings ? vehicleRateNames(doc, 'compliance') : [])];
    if (withBushings && !vehicleRateNames(doc, 'compliance').length) return 'This car\'s axle files give no bushing or link rates (no compliance:).';
    if (!pickups.length && !rates.length) return 'Choose pickups or the rates to move.';
    return { targets, pickups, axes, box, locked, ...(rates.length ? { rates, rateBox: percent / 100 } : {}) };
  }
}
