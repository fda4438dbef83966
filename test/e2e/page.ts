/**
 * What the browser tests share: whether Chromium is here, where screenshots go, and the
 * page helpers (open the viewer with its console errors collected, read its snapshot,
 * wait until every request is answered and drawn, find a handle on the screen).
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, startViewerServer, REPO_ROOT, type ViewerServer } from '../../viewer/harness/browser';
import type { ViewerApp } from '../../viewer/src/app';

export const HAVE_CHROMIUM = chromiumAvailable();
/** Screenshots and saved files of the browser tests (git-ignored). */
export const ARTIFACTS = join(REPO_ROOT, 'test-artifacts');

/** Say once, loudly, why a browser test file is skipped. */
export function warnIfNoChromium(file: string): void {
  if (!HAVE_CHROMIUM) console.warn(`${file}: SKIPPED — /usr/bin/chromium is absent. Install it with \`apt-get update && apt-get install -y chromium\` (.ci/run does).`);
}

/** The skipped test that says why the browser tests did not run. */
export const NO_CHROMIUM_NOTICE = 'SKIPPED: /usr/bin/chromium is absent — apt-get install -y chromium (.ci/run installs it)';

/**
 * Without Chromium, one skipped test in the summary says why and how to install it. With
 * Chromium nothing is registered: a test inside a skipped describe still counts as skipped,
 * so the summary reported one skipped test where none was.
 */
export function noChromiumNotice(have: boolean = HAVE_CHROMIUM, register: (name: string) => void = (name) => describe('viewer in headless Chromium', () => it.skip(name, () => {}))): void {
  if (!have) register(NO_CHROMIUM_NOTICE);
}

export type Snapshot = ReturnType<ViewerApp['snapshot']>;

declare global {
  interface Window { __kinemate: ViewerApp }
}

/** A new page on the viewer, ready and settled; console errors and page errors collected. */
export async function openViewer(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.__kinemate?.ready === true, null, { timeout: 60_000 });
  await settle(page);
  return { page, errors };
}

/**
 * The run's built viewer (test/setup/viewer-server.ts: one build for every browser file), or
 * one built for this file where the run provides none.
 */
export async function viewerServer(): Promise<ViewerServer> {
  const url = inject('viewerUrl');
  return url ? { url, close: async () => {} } : startViewerServer();
}

/**
 * The run's Chromium (test/setup/viewer-server.ts), connected to, or one launched for this
 * file where the run provides none. Either way `close()` when done: on a connection it closes
 * the contexts and pages opened through it and leaves the browser to the other files.
 */
export async function sessionBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (!endpoint) return launchChromium();
  const { chromium } = await import('playwright-core');
  return chromium.connect(endpoint);
}

/**
 * The run's viewer and Chromium for the enclosing describe block (connected before its
 * tests, closed after); returns the function that opens a fresh page on them.
 */
export function viewerSession(): () => Promise<{ page: Page; errors: string[] }> {
  let server: ViewerServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([viewerServer(), sessionBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return () => openViewer(browser!, server!.url);
}

export const snap = (page: Page): Promise<Snapshot> => page.evaluate(() => window.__kinemate.snapshot());

/** Wait until every request made has been answered and drawn, then one more frame so the canvas shows it. */
export async function settle(page: Page): Promise<Snapshot> {
  await page.waitForFunction(() => window.__kinemate.snapshot().settled, null, { timeout: 60_000, polling: 50 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return snap(page);
}

/** Where a handle (point ref, hardpoint name or label) is on the page. */
export async function screenOf(page: Page, name: string): Promise<{ x: number; y: number }> {
  const p = await page.evaluate((n) => window.__kinemate.screenOf(n), name);
  if (!p) throw new Error(`no handle ${name}`);
  return p;
}
