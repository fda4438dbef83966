/**
 * The Fit panel's job, without DOM (it runs in `fit.worker.ts`, and in Node for the tests):
 * the library's inverse design (`fit()`, src/suspension/design/fit.ts) on the document shown, with
 * its targets file's text, reporting each iteration; and the one edit that accepts a result.
 */
import { fit, parseFitSpec, type FitProgress, type FitReport } from '../../suspension/design/fit.ts';
import { validateGeometry } from '../../suspension/files/index.ts';
import { liveEdits, LiveEditError, type LiveRecipe } from '../document.ts';
import type { LiveDocument } from '../document.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';

/**
 * A fit's report as the panel shows it, with each moved hardpoint's fitted position (mm),
 * by the viewer's hardpoint name (an axle's `left_<point>`, `right_<point>`, `center_<point>`).
 */
export interface FitOutcome extends Omit<FitReport, 'geometry'> {
  positions: Record<string, Vec3Tuple>;
}

/**
 * Fit the document's hardpoints to the targets (YAML or JSON text, docs/sensitivity.md).
 * @throws DesignFileError naming the targets file and the path in it (a bad file), or why the
 *   document cannot be fitted (an assembly). An axle keeps its left/right symmetry.
 */
export function runFit(doc: LiveDocument, targetsText: string, fileName = 'targets', onIteration?: (progress: FitProgress) => void): FitOutcome {
  if (doc.kind !== 'suspension') throw new LiveEditError('fit', 'needs a suspension geometry file (this is an assembly)');
  const geometry = validateGeometry(doc.geometry);
  const spec = parseFitSpec(targetsText, geometry, fileName);
  const { geometry: fitted, ...report } = fit(geometry, spec, onIteration ? { onIteration } : {});
  const positions: Record<string, Vec3Tuple> = {};
  for (const key of Object.keys(report.moves)) {
    const name = key.slice(0, key.lastIndexOf('.'));
    if (geometry.scope !== 'axle') {
      const p = fitted.corners[0].hardpoints[name];
      positions[name] = [p[0], p[1], p[2]];
      continue;
    }
    // an axle's `left.<point>`, `right.<point>` (the mirror the symmetric move keeps), `center.<point>`
    const dot = name.indexOf('.');
    const group = name.slice(0, dot), point = name.slice(dot + 1);
    const p = group === 'center' ? fitted.center![point] : fitted.corners.find((c) => c.side === group)!.hardpoints[point];
    positions[`${group}_${point}`] = [p[0], p[1], p[2]];
  }
  return { ...report, positions };
}

/**
 * The edit that accepts a fit: every fitted hardpoint moved at once (one undo entry). On an
 * axle whose file gives the left side only, the right's move writes the left point again
 * (its mirror, the same numbers): the file stays symmetric and keeps its layout.
 */
export function acceptFitRecipe(outcome: FitOutcome): LiveRecipe {
  const moves = Object.entries(outcome.positions).map(([name, p]) => liveEdits.moveHardpoint(name, p));
  return (draft) => { for (const move of moves) move(draft); };
}
