/**
 * Issue 27 item 12: the test summary reported one skipped test (the "no Chromium" notice
 * of test/e2e/viewer.test.ts) even where Chromium is installed, because a test inside a
 * skipped describe still counts as skipped. The notice is registered only without Chromium.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NO_CHROMIUM_NOTICE, noChromiumNotice } from './page';

describe('the no-Chromium notice', () => {
  it('registers nothing where Chromium is, one skipped notice where it is not', () => {
    const registered: string[] = [];
    noChromiumNotice(true, (name) => registered.push(name));
    expect(registered).toEqual([]);
    noChromiumNotice(false, (name) => registered.push(name));
    expect(registered).toEqual([NO_CHROMIUM_NOTICE]);
    expect(NO_CHROMIUM_NOTICE).toMatch(/apt-get install -y chromium/);
  });

  it('the viewer tests use it, not a describe skipped when Chromium is there', () => {
    const source = readFileSync(new URL('./viewer.test.ts', import.meta.url), 'utf8');
    expect(source).toMatch(/^noChromiumNotice\(\);$/m);
    expect(source).not.toMatch(/skipIf\(HAVE_CHROMIUM\)/);
  });
});
