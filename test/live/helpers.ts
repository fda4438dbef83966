/** Shared fixtures for the live-model tests. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import { fourBarDoc } from '../../examples/fourbar.ts';
import { assemblyDocument, readSuspensionDocument, type LiveDocument, type SuspensionLiveDocument } from '../../src/live/index.ts';

export function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** A suspension example file as a live document (`double_wishbone`, `double_wishbone_axle`, …). */
export function suspensionExample(name: string): SuspensionLiveDocument {
  const url = new URL(`../../examples/suspension/${name}.yaml`, import.meta.url);
  return readSuspensionDocument(readFileSync(url, 'utf8'), `${name}.yaml`);
}

/** The four-bar, crank held at `crankDeg` (the file's layout), as a live document. */
export function fourBar(crankDeg = 30, held = true): LiveDocument {
  const doc = fourBarDoc(crankDeg);
  return assemblyDocument(held ? doc : { ...doc, held: [] });
}

/** The crank angle a four-bar document asks for (degrees). */
export function crankOf(document: LiveDocument): number {
  if (document.kind !== 'assembly') throw new Error('not an assembly');
  return document.doc.state['jA.angle'] as number;
}

/** `a − b` wrapped into (−180, 180] degrees. */
export function angleDifference(a: number, b: number): number {
  const d = (((a - b) % 360) + 540) % 360 - 180;
  return d === -180 ? 180 : d;
}

/** The design wheel centre of the double-wishbone example (axle_outboard, offset 0), mm. */
export const WHEEL_CENTER: [number, number, number] = [-20, 950, 313.426];
