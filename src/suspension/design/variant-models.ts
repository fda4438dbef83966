/**
 * One thread's suspension models for a batch's variants: the last variant's model renewed
 * in place for the next (renewModel: the same numbers as a fresh build, without building
 * its blocks and solver workspaces again), or built afresh where it cannot be.
 */
import type { AssemblyDoc } from '../../assembly/types';
import { renewModel } from '../../model/build';
import { SuspensionModel } from '../build/model';

export class VariantModels {
  private last: SuspensionModel | null = null;

  /** A model of `doc` at its design state, with no drivers. */
  model(doc: AssemblyDoc): SuspensionModel {
    const last = this.last;
    this.last = null; // a model half renewed is never handed out again
    if (last) {
      last.clearDrivers();
      let renewed = null;
      try { renewed = renewModel(last.model, doc); } catch { /* built afresh below, which reports the problem itself */ }
      if (renewed) return (this.last = new SuspensionModel(doc, renewed, true));
    }
    return (this.last = new SuspensionModel(doc));
  }
}
