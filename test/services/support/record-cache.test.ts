// The record cache's bounds and freshness rule, with a fake follower and clock.
import { describe, expect, it } from 'vitest';
import { createCompanyChangeSignal, type CompanyChanges } from '../../../src/store/company-changes.ts';
import { cacheBody, createRecordCache, MAX_STALENESS_MS } from '../../../src/services/support/record-cache.ts';

function setup(opts: { maxEntries?: number; maxBytes?: number } = {}) {
  let t = 0;
  const queue: (CompanyChanges | Error)[] = [];
  const signal = createCompanyChangeSignal();
  const warnings: string[] = [];
  const cache = createRecordCache({
    maxEntries: opts.maxEntries ?? 100,
    maxBytes: opts.maxBytes ?? 1_000_000,
    pollMs: 60_000, // polls are driven by the test through start()
    follower: {
      async poll() {
        const next = queue.shift() ?? { keys: [] };
        if (next instanceof Error) throw next;
        return next;
      },
    },
    signal,
    log: { warn: (_o: unknown, msg?: string) => void warnings.push(String(msg)) },
    now: () => t,
  });
  return { cache, signal, queue, warnings, advance: (ms: number) => (t += ms) };
}

const body = (s: string) => Buffer.from(JSON.stringify({ name: s }));

describe('record cache', () => {
  it('keeps each body in a buffer of its own, exactly its size (not a slice of the shared pool)', () => {
    const text = `{"name":"${'æ'.repeat(1500)}"}`;
    const a = cacheBody(text);
    const b = cacheBody(text);
    expect(a.toString()).toBe(text);
    expect(a.length).toBe(Buffer.byteLength(text));
    expect(a.buffer.byteLength).toBe(a.length);
    expect(a.buffer).not.toBe(b.buffer);
    // What Buffer.from does for a body this size: a slice of an 8 kB slab another body shares.
    expect(Buffer.from(text).buffer.byteLength).toBeGreaterThan(a.length);
  });

  it('serves nothing before its first poll, then what was set', async () => {
    const { cache } = setup();
    cache.set('NO:1', body('a'), cache.ticket());
    expect(cache.get('NO:1')).toBeUndefined();
    await cache.start();
    cache.set('NO:1', body('a'), cache.ticket());
    expect(cache.get('NO:1')?.toString()).toBe('{"name":"a"}');
    expect(cache.diagnostics()).toMatchObject({ entries: 1, hits: 1, misses: 0, bypassed: 1, hitRate: 1 });
    cache.stop();
  });

  it('drops the least recently used record beyond its entry bound', async () => {
    const { cache } = setup({ maxEntries: 2 });
    await cache.start();
    for (const k of ['a', 'b']) cache.set(k, body(k), cache.ticket());
    cache.get('a'); // b is now the least recently used
    cache.set('c', body('c'), cache.ticket());
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.diagnostics()).toMatchObject({ entries: 2, capacityEvictions: 1 });
    cache.stop();
  });

  it('keeps its estimated bytes under the memory bound', async () => {
    const { cache } = setup({ maxBytes: 2_000 });
    await cache.start();
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, Buffer.alloc(300), cache.ticket());
    const d = cache.diagnostics();
    expect(d.bytes).toBeLessThanOrEqual(2_000);
    expect(d.entries).toBeGreaterThan(0);
    expect(d.entries).toBeLessThan(50);
    // a body larger than the whole bound is not cached at all
    cache.set('huge', Buffer.alloc(5_000), cache.ticket());
    expect(cache.get('huge')).toBeUndefined();
    cache.stop();
  });

  it('evicts on an announced write at once and drops a body read before it', async () => {
    const { cache, signal } = setup();
    await cache.start();
    cache.set('NO:1', body('old'), cache.ticket());
    const ticket = cache.ticket(); // a lookup starts reading the store ...
    signal.changed({ keys: ['NO:1'] }); // ... a write commits meanwhile
    expect(cache.get('NO:1')).toBeUndefined();
    cache.set('NO:1', body('maybe old'), ticket);
    expect(cache.get('NO:1')).toBeUndefined();
    cache.set('NO:1', body('new'), cache.ticket());
    expect(cache.get('NO:1')?.toString()).toBe('{"name":"new"}');
    signal.changed({ all: true });
    expect(cache.diagnostics().entries).toBe(0);
    cache.stop();
    // stopped: announcements no longer reach it, and nothing is served
    signal.changed({ keys: ['NO:1'] });
    expect(cache.get('NO:1')).toBeUndefined();
  });

  it('stops serving when its last successful poll began more than 1 s ago', async () => {
    const { cache, advance } = setup();
    await cache.start();
    cache.set('NO:1', body('a'), cache.ticket());
    advance(MAX_STALENESS_MS);
    expect(cache.get('NO:1')).toBeDefined();
    advance(1);
    expect(cache.get('NO:1')).toBeUndefined();
    expect(cache.diagnostics().following).toBe(false);
    cache.stop();
  });
  it('warns of a failed poll while it runs, and not of a poll cut off by its own stop (shutdown)', async () => {
    const make = () => {
      const warnings: string[] = [];
      let fail: (err: Error) => void = () => undefined;
      const cache = createRecordCache({
        maxEntries: 10,
        maxBytes: 10_000,
        pollMs: 60_000,
        follower: { poll: () => new Promise<CompanyChanges>((_, reject) => (fail = reject)) },
        signal: createCompanyChangeSignal(),
        log: { warn: (_o: unknown, msg?: string) => void warnings.push(String(msg)) },
        now: () => 0,
      });
      return { cache, warnings, fail: (err: Error) => fail(err) };
    };
    const running = make();
    const started = running.cache.start();
    running.fail(new Error('connection reset'));
    await started;
    expect(running.warnings).toEqual(['record cache: change poll failed']);
    running.cache.stop();

    const closing = make();
    const again = closing.cache.start();
    closing.cache.stop(); // the store closes while this poll is in flight
    closing.fail(new Error('driver has already been destroyed'));
    await again;
    expect(closing.warnings).toEqual([]);
  });
});
