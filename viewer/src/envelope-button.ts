/**
 * Envelope: the volume the tyre sweeps over a bump × steer grid (wheel travel ±50 mm ×
 * rack ±30 mm, 7 × 7 states), computed by the library (`suspensionEnvelope`, as `kinemate
 * envelope` does) on the suspension shown and drawn translucent; a second click removes it.
 * It runs on the page (a second or so): a button press, not a drag frame.
 */
import { gridSweep, parseGeometry, suspensionAssembly, suspensionBodies, suspensionEnvelope, SuspensionModel, type History, type PartMesh } from '../../src/index.ts';
import type { ViewerDocument } from './document';

export interface EnvelopeHost {
  readonly history: Pick<History<ViewerDocument>, 'current'>;
  readonly partMeshes: { readonly meshes: ReadonlyMap<string, PartMesh> };
  readonly clearanceOverlay: { showEnvelope(mesh: PartMesh | null): void };
  showError(text: string): void;
  showNotice(text: string): void;
  invalidate(): void;
}

const steps = (a: number, b: number, n: number) => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));

export class EnvelopeButton {
  /** Triangles of the envelope drawn (0: none), for tests. */
  triangles = 0;

  constructor(private readonly app: EnvelopeHost, button: HTMLElement) {
    button.addEventListener('click', () => this.toggle());
  }

  toggle(): void {
    if (this.triangles > 0) { this.clear(); return; }
    const doc = this.app.history.current;
    const tyre = this.app.partMeshes.meshes.get('tyre');
    if (doc.kind !== 'suspension' || !tyre) { this.app.showError('Envelope: open a suspension file whose geometry section has a tyre, with its files.'); return; }
    try {
      const geometry = parseGeometry(JSON.stringify(doc.geometry));
      const sm = new SuspensionModel(suspensionAssembly(geometry));
      const grid = gridSweep(steps(-50, 50, 7), steps(-30, 30, 7), geometry);
      const envelope = suspensionEnvelope(sm, grid, suspensionBodies(sm, ['tyre']), 'tyre', tyre, { voxel: 10 });
      this.app.clearanceOverlay.showEnvelope(envelope.mesh);
      this.triangles = envelope.mesh.indices.length / 3;
      this.app.showNotice(`Envelope of the tyre over bump −50…50 mm × rack −30…30 mm (7 × 7 states${envelope.failed ? `, ${envelope.failed} failed` : ''}): ${this.triangles} triangles, ${envelope.voxel} mm voxels.`);
    } catch (error) {
      this.app.showError(`Envelope failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.app.invalidate();
  }

  /** Removes the envelope (a new document, or a second click). */
  clear(): void {
    this.app.clearanceOverlay.showEnvelope(null);
    this.triangles = 0;
    this.app.invalidate();
  }
}
