import { describe, expect, it } from 'vitest';
import { createHostPacer } from '../../../src/sources/web-crawler/pacer.ts';

/** A pacer on a fake clock: sleeping advances time instead of waiting. */
function pacer(delayMs: number) {
  let t = 1_000;
  const slept: number[] = [];
  const p = createHostPacer({
    delayMs,
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
  return { p, slept, advance: (ms: number) => (t += ms) };
}

describe('createHostPacer', () => {
  it('spaces requests to one host by the delay, in reservation order', async () => {
    const { p, slept } = pacer(500);
    await Promise.all([p.wait('a.no'), p.wait('a.no'), p.wait('a.no')]);
    expect(slept).toEqual([500, 1000]);
  });

  it('does not hold back other hosts', async () => {
    const { p, slept } = pacer(500);
    await Promise.all([p.wait('a.no'), p.wait('b.no'), p.wait('c.no')]);
    expect(slept).toEqual([]);
  });

  it('counts time already passed since the last request', async () => {
    const { p, slept, advance } = pacer(500);
    await p.wait('a.no');
    advance(300);
    await p.wait('a.no');
    advance(1_000);
    await p.wait('a.no');
    expect(slept).toEqual([200]);
  });

  it('uses a larger per-host delay (robots.txt Crawl-delay) but never a smaller one', async () => {
    const { p, slept } = pacer(500);
    p.setDelay('slow.no', 2_000);
    p.setDelay('fast.no', 10);
    await p.wait('slow.no');
    await p.wait('slow.no');
    await p.wait('fast.no');
    await p.wait('fast.no');
    expect(slept).toEqual([2_000, 500]);
  });
});
