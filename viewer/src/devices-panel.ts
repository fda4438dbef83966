/**
 * The devices panel (issue 15 item 6): the camber shim's setup thickness, typed in (one
 * undo entry per change; the setup is solved again with the document), and the device
 * metrics at the pose shown (rocker and bar angles, ARB twist, T-bar heave angle, heave
 * link length). Shown only for a suspension that has a device. DOM only.
 */
import type { PoseResult } from '../../src/index.ts';
import type { ViewerDocument } from './document';
import { DEVICE_METRICS, shimSections } from '../../src/index.ts';
import { metricRows } from './panels';

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export class DevicesPanel {
  private readonly body: HTMLElement;
  private shimKey = '';

  /** `onShim(path, thickness)`: a typed shim thickness; returns why it was refused (null when taken). */
  constructor(readonly panel: HTMLElement, private readonly onShim: (path: string[], thickness: number) => string | null) {
    this.body = panel.querySelector<HTMLElement>('#devices-body') ?? panel;
    this.body.innerHTML = '<div id="devices-shims"></div><table id="devices-readouts"></table>';
  }

  render(doc: ViewerDocument, r: PoseResult): void {
    const shims = doc.kind === 'suspension' ? shimSections(doc.geometry) : [];
    const metrics = DEVICE_METRICS.filter(({ metric }) => typeof r.metrics[metric] === 'number');
    this.panel.hidden = !r.suspension || (shims.length === 0 && metrics.length === 0 && r.devices.length === 0);
    if (this.panel.hidden) return;
    const holder = this.body.querySelector<HTMLElement>('#devices-shims')!;
    const key = shims.map((s) => s.path.join('.')).join(',');
    if (key !== this.shimKey) {
      this.shimKey = key;
      holder.innerHTML = shims.map((s) => `<label style="display:flex;gap:6px;align-items:center;margin:2px 0" title="Setup thickness of the shim between the upright and the camber block; designed at ${s.design} mm"><span style="flex:1">${esc(s.label)}</span><input type="number" step="0.5" data-shim="${s.path.join('.')}" style="width:6.5em" /><span style="width:2.6em">mm</span></label>`).join('');
      holder.querySelectorAll<HTMLInputElement>('input[data-shim]').forEach((input) => input.addEventListener('change', () => {
        const value = Number(input.value);
        const refused = input.value.trim() === '' || !Number.isFinite(value) ? `not a number: ${JSON.stringify(input.value)}` : this.onShim(input.dataset.shim!.split('.'), value);
        if (refused !== null) input.value = input.dataset.value ?? '';
      }));
    }
    for (const s of shims) {
      const input = holder.querySelector<HTMLInputElement>(`input[data-shim="${s.path.join('.')}"]`)!;
      input.dataset.value = String(s.setup);
      if (document.activeElement !== input && input.value !== String(s.setup)) input.value = String(s.setup);
    }
    this.body.querySelector<HTMLElement>('#devices-readouts')!.innerHTML = metricRows(DEVICE_METRICS, r, 'device-metric');
  }
}
