/**
 * One built viewer, served for every browser test file of the run (the `e2e` project's global
 * setup). Each file used to build the viewer itself (`vite build`, ~20 s of CPU on the 2-core
 * machine) before its Chromium opened it: thirteen builds of the same sources per `npm test`.
 * Built here once per run, from the checkout as it is, into a fresh temporary folder and served
 * by one `vite preview` for the whole run; `viewerSession` (test/e2e/page.ts) reads its address
 * with `inject('viewerUrl')` and builds its own only where none is provided (a browser file
 * run by another project). Without Chromium the browser tests are skipped: nothing is built.
 */
import type { TestProject } from 'vitest/node';
import { chromiumAvailable, startViewerServer } from '../../viewer/harness/browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's built viewer's address ('' without Chromium; see test/setup/viewer-server.ts). */
    viewerUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!chromiumAvailable()) {
    project.provide('viewerUrl', '');
    return undefined;
  }
  const server = await startViewerServer();
  project.provide('viewerUrl', server.url);
  return () => server.close();
}
