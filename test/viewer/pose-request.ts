/**
 * A pose request as the page's live model makes it (the one request type, src/live's
 * LiveRequest): the document with its version, the view settings (where the suspension
 * sits, a load case), maybe a pull, a fresh start or a cancelled drag.
 */
import type { LiveDocument, LiveRequest } from '../../src/live/index.ts';
import type { PoseRequest, ViewState } from '../../src/live/view/presenter.ts';
import type { LoadCase } from '../../src/live/view/loads.ts';

type More = Partial<Pick<LiveRequest, 'pull' | 'fresh' | 'cancelledDrag' | 'compiled'>> & { loads?: LoadCase | null };

export function poseAt(version: number, document: LiveDocument, view: ViewState, { loads, ...more }: More = {}): PoseRequest {
  return { version, document, settings: { view, loads: loads ?? null }, pull: null, ...more };
}
