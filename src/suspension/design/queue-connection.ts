/**
 * The Redis behind `kinemate batch --queue` and `kinemate worker`: its address read from
 * `redis://HOST:PORT[/DB]`, and a first contact that fails within seconds with one line
 * naming the address (ioredis on its own would retry for ever).
 */
import { KinemateError } from '../../../kernel/errors.ts';

/** A queue that cannot be used: a bad address, no server there, a worker of another build. */
export class QueueError extends KinemateError {
  override name = 'QueueError';
}

export interface QueueAddress {
  /** The address as the user wrote it (for messages). */
  url: string;
  host: string;
  port: number;
  db: number;
}

/** Read `redis://HOST:PORT[/DB]` (PORT defaults to 6379, DB to 0); `what` names the option. */
export function parseQueueAddress(text: string, what = '--queue'): QueueAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new QueueError(what, `expected redis://HOST:PORT[/DB], got "${text}"`);
  }
  if (url.protocol !== 'redis:') throw new QueueError(what, `expected redis://HOST:PORT[/DB], got "${text}" (only redis:// is understood)`);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) throw new QueueError(what, `the database in "${text}" must be a whole number ≥ 0`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw new QueueError(what, `no host in "${text}"`);
  return { url: text, host, port, db };
}

/** ioredis options for BullMQ (which needs maxRetriesPerRequest null on its blocking connections). */
export function connectionOptions(address: QueueAddress): { host: string; port: number; db: number; maxRetriesPerRequest: null } {
  return { host: address.host, port: address.port, db: address.db, maxRetriesPerRequest: null };
}

/** Ping the server once, giving up after `timeoutMs`: a clear QueueError instead of endless retries. */
export async function checkReachable(address: QueueAddress, timeoutMs = 3000): Promise<void> {
  const { Redis } = await import('ioredis');
  const client = new Redis({ host: address.host, port: address.port, db: address.db, lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  let first: NodeJS.ErrnoException | null = null;
  client.on('error', (error: NodeJS.ErrnoException) => { first ??= error; }); // the socket's own reason (ECONNREFUSED, …)
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const cause: NodeJS.ErrnoException = first ?? (error as NodeJS.ErrnoException);
    const reason = cause.code ? `${cause.code} (${cause.message})` : cause.message;
    throw new QueueError('', `cannot reach the queue at ${address.url}: ${reason}`);
  } finally {
    client.disconnect();
  }
}
