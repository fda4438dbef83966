/**
 * The sensitivity arrows' lane across a drag (issue 26): each move's gradient model renews
 * the last move's suspension model in place (the same topology) instead of building one,
 * and its arrows are, bit for bit, those of a model built afresh for that document.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SensitivityPresenter, type ArrowRequest } from '../../src/live/view/sensitivity.ts';
import { compileDocument, liveEdits, suspensionDocument, type LiveDocument } from '../../src/live';
import { hardpointPosition } from '../../viewer/src/document';
import { parseText } from '../../src/suspension/files';
import { History } from '../../src/reactive';

const docOf = (name: string) => suspensionDocument(parseText(readFileSync(new URL(`../../examples/suspension/${name}.yaml`, import.meta.url), 'utf8')));

/** The system of the presenter's current gradient model (the object a renewal keeps). */
const systemOf = (p: SensitivityPresenter): unknown => (p as unknown as { cached: { model: { sm: { model: { system: unknown } } } | null } | null }).cached?.model?.sm.model.system;

describe('sensitivity arrows across a drag', () => {
  for (const [name, pickup, travel] of [
    ['double_wishbone', 'upper_wishbone_inboard_front', [20]],
    ['double_wishbone_axle', 'left_lower_wishbone_inboard_front', [10, -5]],
  ] as const) {
    it(`${name}: a moved ${pickup} renews the model, and the arrows equal a fresh model's`, () => {
      const history = new History<LiveDocument>(docOf(name));
      const start = hardpointPosition(history.current, pickup)!;
      const kept = new SensitivityPresenter();
      let system: unknown = null;
      for (let i = 0; i < 3; i++) {
        if (i > 0) history.apply(liveEdits.moveHardpoint(pickup, [start[0] + 4 * i, start[1], start[2] - 3 * i]), 'move');
        const doc = history.current;
        const request: ArrowRequest = { docKey: i + 1, doc, compiled: compileDocument(doc), view: { travel: [...travel], rack: 0 }, metric: 'camber', ...(travel.length > 1 ? { side: 'left' } : {}) };
        const renewed = { ...kept.arrows(request), ms: 0 };
        const fresh = { ...new SensitivityPresenter().arrows(request), ms: 0 };
        expect(renewed.status).toBe('ok');
        expect(renewed).toEqual(fresh);
        // the same system, its numbers renewed (a rebuild would make a new one)
        if (i > 0) expect(systemOf(kept)).toBe(system);
        system = systemOf(kept);
      }
      // the drag moved the arrows: the comparison above is between answers that change
      expect(hardpointPosition(history.current, pickup)).not.toEqual(start);
    });
  }
});
