// A batch worker thread: TypeScript is loaded through tsx (as bin/kinemate.js does), then
// batch-worker.ts answers the pool's messages.
import { register } from 'tsx/esm/api';
register();
await import('./batch-worker.ts');
