// The bureaus' request rates: a sliding window per bureau (on a fake clock, no real waiting) and
// Retry-After read as seconds or as an HTTP date.
import { describe, expect, it } from 'vitest';
import { createPacer, RATE_LIMITS, retryAfterMs } from '../../../src/sources/statistics/index.ts';

function clocked(limit: (typeof RATE_LIMITS)['SE']) {
  let t = 1_000_000;
  const waits: number[] = [];
  const pacer = createPacer(
    limit,
    () => t,
    async (ms) => {
      waits.push(ms);
      t += ms;
    },
  );
  return { pacer, waits, at: () => t };
}

describe('createPacer', () => {
  it('lets SCB have 10 calls in 10 s and makes the 11th wait for the first to leave the window', async () => {
    const { pacer, waits, at } = clocked(RATE_LIMITS.SE);
    const start = at();
    for (let i = 0; i < 10; i++) await pacer.take();
    expect(waits).toEqual([]);
    await pacer.take();
    expect(waits).toEqual([10_000]);
    expect(at() - start).toBe(10_000);
  });

  it('spaces SSB to 30 a minute: 61 calls take two full minutes', async () => {
    const { pacer, at } = clocked(RATE_LIMITS.NO);
    const start = at();
    for (let i = 0; i < 61; i++) await pacer.take();
    expect(at() - start).toBe(120_000);
  });

  it('records the documented limits', () => {
    expect(RATE_LIMITS).toMatchObject({
      NO: { calls: 30, windowMs: 60_000 },
      SE: { calls: 10, windowMs: 10_000 },
      FI: { calls: 30, windowMs: 10_000 },
    });
  });
});

describe('retryAfterMs', () => {
  it.each([
    ['0', 0],
    ['7', 7000],
    [undefined, null],
    ['', null],
    ['soon', null],
  ])('%j -> %j', (header, ms) => expect(retryAfterMs(header)).toBe(ms));

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(retryAfterMs('Tue, 01 Dec 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Tue, 01 Dec 2026 09:00:00 GMT', now)).toBe(0);
  });
});
