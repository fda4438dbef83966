/**
 * The example mechanisms and the `examples/*.kinemate.json` file each one is written to
 * (`npx tsx examples/mechanisms/write-all.ts` regenerates them all).
 */
import type { AssemblyDoc } from '../../src/assembly/types';
import { fourBarDoc } from '../fourbar';
import { sliderCrankDoc } from './slider-crank';
import { spherical4RDoc } from './spherical-4r';
import { bennettDoc } from './bennett';
import { couplingsDoc } from './couplings';
import { chainDoc } from './chain';
import { stewartDoc } from './stewart';
import { camDoc } from './cam';
import { pinewoodDoc } from './pinewood';

export interface ExampleFile {
  /** File name under examples/. */
  file: string;
  doc: () => AssemblyDoc;
}

export const EXAMPLE_FILES: readonly ExampleFile[] = [
  { file: 'four-bar.kinemate.json', doc: () => fourBarDoc(30) },
  { file: 'slider-crank.kinemate.json', doc: () => sliderCrankDoc({ crankDeg: 30 }) },
  { file: 'offset-slider-crank.kinemate.json', doc: () => sliderCrankDoc({ e: 0.5, crankDeg: 30, slideLimits: [2, 3.9] }) },
  { file: 'spherical-4r.kinemate.json', doc: () => spherical4RDoc(0) },
  { file: 'bennett.kinemate.json', doc: () => bennettDoc(60) },
  { file: 'couplings.kinemate.json', doc: () => couplingsDoc() },
  { file: 'chain.kinemate.json', doc: () => chainDoc({ n: 100, thetaDeg: 3.6, close: true }) },
  { file: 'stewart.kinemate.json', doc: () => stewartDoc() },
  { file: 'cam.kinemate.json', doc: () => camDoc(0) },
  { file: 'pinewood.kinemate.json', doc: () => pinewoodDoc() },
];

export { fourBarDoc, sliderCrankDoc, spherical4RDoc, bennettDoc, couplingsDoc, chainDoc, stewartDoc, camDoc, pinewoodDoc };
