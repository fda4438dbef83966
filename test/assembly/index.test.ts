/** src/assembly's public API used as a program uses it: each export does its job. */
import { describe, expect, it } from 'vitest';
import * as assembly from '../../src/assembly/index.ts';
import { fourBarDoc } from '../../examples/fourbar.ts';

describe('src/assembly public API', () => {
  it('loads, saves and answers questions about a document through the index alone', () => {
    const text = assembly.serializeAssembly(assembly.validateAssembly(fourBarDoc(30)));
    const doc = assembly.parseAssembly(text);
    expect(doc.format).toBe(assembly.ASSEMBLY_FORMAT);
    expect(assembly.serializeAssembly(doc)).toBe(text);
    expect(assembly.entityKind(doc, 'ground.pivotD')).toBe('frame');
    expect(assembly.entityKind(doc, 'ground.nope')).toBeUndefined();
    expect(assembly.splitReference('ground.pivotD')).toEqual({ owner: 'ground', name: 'pivotD' });
    expect(assembly.splitReference('nodot')).toBeUndefined();
    const jA = doc.mates.jA;
    expect([assembly.isJoint(jA), assembly.isConstraint(jA), assembly.isCoupling(jA)]).toEqual([true, false, false]);
    expect(assembly.coordinatesOfMate(jA)).toEqual(['angle']);
    expect(assembly.mateTypesJoining('point', 'point')).toEqual(['coincident', 'distance', 'ball']);
  });

  it('reads JSON strictly and names the place of a problem', () => {
    // numbers kept exactly as written, -0 included
    expect(assembly.stringifyJson(assembly.parseJson('{"a": [1, 2.5, -0]}'))).toBe('{ "a": [1, 2.5, -0] }\n');
    expect(assembly.memberPath(assembly.ROOT_PATH, 'mates')).toBe('mates');
    expect(assembly.itemPath(assembly.memberPath('mates', 'tie'), 2)).toBe('mates.tie[2]');
    let error: unknown;
    try { assembly.parseAssembly('{"format": "kinemate.assembly/1", "units": {"length": "mm", "angle": "deg"}, "parts": {}, "held": ["jX.angle"]}'); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(assembly.AssemblyError);
    expect((error as InstanceType<typeof assembly.AssemblyError>).path).toBe('held[0]');
  });
});
