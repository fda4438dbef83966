/**
 * Regenerate every `examples/*.kinemate.json` from its generator:
 *
 *   npx tsx examples/mechanisms/write-all.ts
 *
 * Each document is checked (validateAssembly) and written by serializeAssembly, so a
 * file that is written is one that loads and saves back bit for bit.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { serializeAssembly, validateAssembly } from '../../src/assembly';
import { EXAMPLE_FILES } from './index';

const dir = fileURLToPath(new URL('..', import.meta.url));
for (const { file, doc } of EXAMPLE_FILES) {
  const text = serializeAssembly(validateAssembly(doc()));
  writeFileSync(join(dir, file), text);
  console.log(`${file}: ${text.length} bytes`);
}
