/**
 * `simulate --gradient`'s progress on a terminal's stderr (as drive's and plot's are tested):
 * the forward pass's line, then the adjoint sweep's in its place, both erased; nothing when
 * stderr is not a terminal; stdout holds only the JSON, the same as without a terminal.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { memoryIO } from '../cli/helpers';

const args = (method: string) => ['simulate', 'examples/quarter-car-bump.kinemate.json', '--duration', '0.2', '--step', '0.002',
  '--gradient', 'spring.stiffness', '--gradient', 'body.spring_top.z', '--result', 'body.position.z', '--gradient-method', method];

describe('simulate --gradient progress', () => {
  it('adjoint: the forward line to 100/100, erased, then the backward sweep\'s, erased', async () => {
    const io = memoryIO({ tty: true });
    expect(await main(args('adjoint'), io)).toBe(0);
    const err = io.written.stderr;
    expect(err).toMatch(/^\rsimulate \[/);
    const forwardDone = err.indexOf(`\rsimulate [${'#'.repeat(30)}] 100/100`);
    const firstBack = err.indexOf('\radjoint [');
    expect(forwardDone).toBeGreaterThanOrEqual(0);
    // the forward line is erased before the sweep's is drawn
    expect(err.slice(forwardDone, firstBack)).toContain('\r\x1b[K');
    expect(firstBack).toBeGreaterThan(forwardDone);
    // the peak's step: the sweep runs back from there to the first step
    const peak = (JSON.parse(io.written.stdout) as { t: number }).t, last = Math.round(peak / 0.002);
    expect(err).toContain(`\radjoint [${'#'.repeat(30)}] ${last}/${last}`);
    expect(err.endsWith('\r\x1b[K')).toBe(true);
    const plain = memoryIO({ tty: false });
    expect(await main(args('adjoint'), plain)).toBe(0);
    expect(plain.written.stderr).toBe('');
    expect(plain.written.stdout).toBe(io.written.stdout);
  }, 60_000);

  it('direct: one forward line, erased', async () => {
    const io = memoryIO({ tty: true });
    expect(await main(args('direct'), io)).toBe(0);
    expect(io.written.stderr).toMatch(/^\rsimulate \[/);
    expect(io.written.stderr).toContain('100/100');
    expect(io.written.stderr).not.toContain('adjoint');
    expect(io.written.stderr.endsWith('\r\x1b[K')).toBe(true);
  }, 60_000);
});
