/**
 * `kinemate report`: its refusals, and the steps that could not be solved listed as kinemate
 * sweep reports them, exit 2. The page in headless Chromium (no console error, no request,
 * kinemate sweep's numbers) is report-chromium.test.ts, a browser test.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../cli/helpers.ts';
import { DW, run } from './helpers.ts';

const temp = tempFolder();
afterAll(() => temp.remove());

describe('kinemate report', () => {
  it('refuses a missing folder and a wrong extension', async () => {
    const missing = await run(['report', DW, '--out', temp.file('no/r.html')]);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe(`kinemate: report: --out "${temp.file('no/r.html')}": the folder "${temp.file('no')}" does not exist\n`);
    expect((await run(['report', DW, '--out', temp.file('r.pdf')])).stderr).toMatch(/^kinemate: report: --out .*: the file must end in \.html or \.htm\n$/);
  });

  it('lists the steps that could not be solved, and exits with 2', async () => {
    const out = temp.file('beyond.html');
    expect(await run(['report', DW, '--bump', '0:600:7', '--out', out])).toMatchObject({ code: 2, stderr: '' });
    const sweep = await run(['sweep', DW, '--bump', '0:600:7', '--format', 'json']);
    expect(sweep.code).toBe(2);
    const steps = (JSON.parse(sweep.stdout) as { sweeps: { bump: { steps: { index: number; status: string }[] } } }).sweeps.bump.steps;
    const failed = steps.filter((s) => s.status === 'failed').map((s) => `<li>step ${s.index} failed`);
    expect(failed.length).toBeGreaterThan(0);
    const html = readFileSync(out, 'utf8');
    expect(html.slice(html.indexOf('id="diagnostics"')).match(/<li>step \d+ failed/g)).toEqual(failed);
  });

});
