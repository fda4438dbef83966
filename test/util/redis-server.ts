/**
 * A real Redis for the queue's tests: Debian's redis-server started on a free loopback port
 * with nothing saved to disk, stopped at the end. Without the package the tests skip,
 * saying so (`.ci/run` installs it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const HAVE_REDIS = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
if (!HAVE_REDIS) console.warn('queue tests skipped: no redis-server on this machine (apt-get install -y redis-server; .ci/run installs it)');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${seen}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/Ready to accept connections/.test(seen)) { clearTimeout(timer); resolve(); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`redis-server exited (${code}): ${seen}`)); });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) { resolve(); return; }
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
