/**
 * The viewer's build: `npm start` serves viewer/ (vite dev server); the end-to-end tests
 * and the benchmark build it once (`vite build`) and serve the build (`vite preview`).
 * Vitest keeps its own vitest.config.ts, so this file only concerns the browser app.
 */
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: 'viewer',
  // the app imports the project's sources (src/, kernel/, mates/, examples/) from the repo root
  server: { fs: { allow: [repoRoot] }, host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  worker: { format: 'es' },
  build: { outDir: '../dist/viewer', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
  optimizeDeps: { include: ['three', 'uplot', 'rxjs', 'immer', 'yaml'] },
});
