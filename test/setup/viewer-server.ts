/**
 * What every browser test file of the run shares (the `e2e` project's global setup): one built
 * viewer, served, and one Chromium.
 *
 * The viewer: each file used to build it itself (`vite build`, ~20 s of CPU on the 2-core
 * machine) before its Chromium opened it: thirteen builds of the same sources per `npm test`.
 * Built here once per run, from the checkout as it is, into a fresh temporary folder and served
 * by one `vite preview` for the whole run; `viewerSession` (test/e2e/page.ts) reads its address
 * with `inject('viewerUrl')` and builds its own only where none is provided (a browser file
 * run by another project).
 *
 * Chromium: a browser server on a local WebSocket, which each file connects to (`sessionBrowser`,
 * test/e2e/page.ts) and leaves with `close()`, which closes the contexts and pages it opened and
 * nothing else. Each file used to launch its own Chromium (its browser, GPU, network and storage
 * processes: ~1.2 s of CPU a start more than a context in a running one), fifteen per `npm test`.
 * Every page still opens in a context of its own (`browser.newPage`), so no cookie, storage or
 * cache passes from one file or test to another.
 *
 * Without Chromium the browser tests are skipped: nothing is built or started.
 */
import type { TestProject } from 'vitest/node';
import { chromiumAvailable, CHROMIUM, CHROMIUM_ARGS, startViewerServer } from '../../viewer/harness/browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's built viewer's address ('' without Chromium). */
    viewerUrl: string;
    /** The run's Chromium's WebSocket address ('' without Chromium). */
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!chromiumAvailable()) {
    project.provide('viewerUrl', '');
    project.provide('chromiumEndpoint', '');
    return undefined;
  }
  const { chromium } = await import('playwright-core');
  const [server, browser] = await Promise.all([
    startViewerServer(),
    chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true }),
  ]);
  project.provide('viewerUrl', server.url);
  project.provide('chromiumEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await server.close();
  };
}
