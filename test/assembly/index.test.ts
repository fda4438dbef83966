import { describe, expect, it } from 'vitest';
import * as assembly from '../../src/assembly/index.ts';

describe('src/assembly public API', () => {
  it('exports the loader, the saver and the helpers', () => {
    for (const name of [
      'parseAssembly', 'validateAssembly', 'serializeAssembly', 'entityKind', 'coordinatesOfMate', 'splitReference',
      'isConstraint', 'isJoint', 'isCoupling', 'parseJson', 'stringifyJson', 'memberPath', 'itemPath',
    ] as const) {
      expect(typeof assembly[name]).toBe('function');
    }
    expect(new assembly.AssemblyError('$', 'x')).toBeInstanceOf(Error);
    expect(assembly.ASSEMBLY_FORMAT).toBe('kinemate.assembly/1');
  });
});
