/**
 * Node-side harness shared by the end-to-end tests (test/e2e) and the benchmark
 * (bench/viewer.ts): build the viewer once, serve the build on a free port, and drive
 * Debian's Chromium (never a downloaded browser) through playwright-core with WebGL on
 * SwiftShader, as ../shared/design/viewer.md prescribes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export interface ViewerServer {
  url: string;
  close(): Promise<void>;
}

/** Build the viewer into a fresh temporary folder and serve it (vite preview) on a free port. */
export async function startViewerServer(): Promise<ViewerServer> {
  const { build, preview } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'kinemate-viewer-'));
  const configFile = join(REPO_ROOT, 'vite.config.ts');
  await build({ configFile, root: join(REPO_ROOT, 'viewer'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ configFile, root: join(REPO_ROOT, 'viewer'), logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false, open: false } });
  const address = server.httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/`,
    async close() {
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}
