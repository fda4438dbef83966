/**
 * The live model's compiled documents (src/live/live-model.ts): the validation hook compiles
 * each new document once and the solver reuses that compile, so the newest few are kept,
 * most recently used last.
 */
import { compileDocument, isDocumentError, type CompiledDocument, type LiveDocument } from './document.ts';

/** Compiled documents kept for reuse (the validator compiles, the solver needs the result). */
const COMPILE_CACHE_SIZE = 8;

export class CompileCache {
  private readonly compiled = new Map<LiveDocument, CompiledDocument>();

  /** The validation hook: compiles (and caches) the document; its problem, or null. */
  problem(document: LiveDocument): string | null {
    try {
      this.compile(document);
      return null;
    } catch (error) {
      if (isDocumentError(error)) return error.message;
      throw error;
    }
  }

  compile(document: LiveDocument): CompiledDocument {
    const cached = this.compiled.get(document);
    if (cached !== undefined) {
      // most recently used last
      this.compiled.delete(document);
      this.compiled.set(document, cached);
      return cached;
    }
    const compiled = compileDocument(document);
    this.compiled.set(document, compiled);
    if (this.compiled.size > COMPILE_CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value as LiveDocument);
    return compiled;
  }
}
