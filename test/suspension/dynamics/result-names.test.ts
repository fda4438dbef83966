/**
 * The suspension's result names (src/suspension/dynamics/result-names.ts): the frame writes
 * each corner's fields in the registry's order, the CSV heads its columns with the registry's
 * names, and every such column is a result `simulate --result` offers on the same file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { suspensionColumns } from '../../../src/cli/suspension-simulate';
import { parseGeometry } from '../../../src/suspension/files';
import { prepareSuspensionDynamics, readSuspensionDynamics, simulateSuspension } from '../../../src/suspension/dynamics/model';
import { CORNER_RESULTS, suspensionColumnNames } from '../../../src/suspension/dynamics/result-names';
import { LISTED_SIDE_NAMES, suspensionResultNames } from '../../../src/suspension/gradients/simulation/results';

describe('suspension result names', () => {
  it('the gradient results list every corner result of the registry, each once', () => {
    expect([...LISTED_SIDE_NAMES].sort()).toEqual([...CORNER_RESULTS].sort());
  });

  it("a run's frame, its CSV columns and its gradient results agree on the names", () => {
    const geometry = parseGeometry(readFileSync('examples/suspension/double_wishbone_dynamics.yaml', 'utf8'));
    const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry);
    const model = prepareSuspensionDynamics(geometry, spec);
    const frame = simulateSuspension(model, { duration: 0.001, step: 0.001 }).frames[0].suspension;
    for (const corner of Object.values(frame.corners)) expect(Object.keys(corner)).toEqual([...CORNER_RESULTS]);
    const columns = suspensionColumns(frame).map((c) => c.name);
    expect(columns).toEqual(suspensionColumnNames({
      sides: Object.keys(frame.corners), elements: Object.keys(frame.elements), links: Object.keys(frame.links), heave: frame.chassis_heave !== undefined,
    }));
    expect(columns).toContain('left.camber');
    const offered = suspensionResultNames({ geometry, spec }, model.doc);
    expect(columns.filter((c) => !offered.includes(c))).toEqual([]);
  });
});
