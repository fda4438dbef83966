/**
 * One Chromium for every browser test file of the run (the `e2e` project's global setup): a
 * browser server on a local WebSocket, which each file connects to (`sessionBrowser`,
 * test/e2e/page.ts) and leaves with `close()`, which closes the contexts and pages it opened and
 * nothing else. Each file used to launch its own Chromium (its browser, GPU, network and storage
 * processes), ~1.2 s of CPU a start measured against a context in a running one, fifteen starts
 * per `npm test`. Every page still opens in a context of its own (`browser.newPage`), so no
 * cookie, storage or cache passes from one file or test to another.
 */
import type { TestProject } from 'vitest/node';
import { chromiumAvailable, CHROMIUM, CHROMIUM_ARGS } from '../../viewer/harness/browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium's WebSocket address ('' without Chromium; see test/setup/chromium-server.ts). */
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!chromiumAvailable()) {
    project.provide('chromiumEndpoint', '');
    return undefined;
  }
  const { chromium } = await import('playwright-core');
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
