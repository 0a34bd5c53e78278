// The read-ahead's rules (services/read-ahead.ts), with a fake clock: a page is handed over once,
// only within its age bound, never after a clear, and a failed read leaves the request to read.
import { describe, expect, it } from 'vitest';
import { createReadAhead } from '../../../src/services/support/read-ahead.ts';
import { MAX_STALENESS_MS } from '../../../src/services/support/record-cache.ts';

function setup(maxEntries = 4) {
  let t = 0;
  const ahead = createReadAhead<string>({ maxEntries, now: () => t });
  return { ahead, advance: (ms: number) => (t += ms) };
}

describe('read-ahead', () => {
  it('hands a page over once, and starts no second read of a key being read', async () => {
    const { ahead } = setup();
    let reads = 0;
    const read = async () => `page ${++reads}`;
    ahead.start('p2', read);
    ahead.start('p2', read);
    expect(reads).toBe(1);
    await expect(ahead.take('p2')).resolves.toBe('page 1');
    expect(ahead.take('p2')).toBeUndefined();
    expect(ahead.take('p3')).toBeUndefined();
    expect(ahead.stats()).toEqual({ started: 1, handedOver: 1, expired: 0, dropped: 0, held: 0 });
  });

  it('hands over a page still being read (the request waits for it)', async () => {
    const { ahead } = setup();
    let finish!: (v: string) => void;
    ahead.start('p2', () => new Promise<string>((resolve) => (finish = resolve)));
    const taken = ahead.take('p2');
    expect(taken).toBeDefined();
    finish('late page');
    await expect(taken).resolves.toBe('late page');
  });

  it('does not hand over a page whose read began more than the staleness bound ago', async () => {
    const { ahead, advance } = setup();
    ahead.start('p2', async () => 'old');
    advance(MAX_STALENESS_MS + 1);
    expect(ahead.take('p2')).toBeUndefined();
    ahead.start('p3', async () => 'recent');
    advance(MAX_STALENESS_MS);
    await expect(ahead.take('p3')).resolves.toBe('recent');
    expect(ahead.stats()).toMatchObject({ expired: 1, handedOver: 1, held: 0 });
  });

  it('prunes pages too old to hand over, so what it holds is what it can still hand over', () => {
    const { ahead, advance } = setup();
    ahead.start('a', async () => 'a');
    advance(600);
    ahead.start('b', async () => 'b');
    advance(MAX_STALENESS_MS - 500);
    expect(ahead.stats()).toMatchObject({ held: 1, expired: 1 });
  });

  it('drops every page on clear, including one still being read', async () => {
    const { ahead } = setup();
    let finish!: (v: string) => void;
    ahead.start('p2', () => new Promise<string>((resolve) => (finish = resolve)));
    ahead.start('q2', async () => 'other');
    ahead.clear();
    finish('read before the write');
    expect(ahead.take('p2')).toBeUndefined();
    expect(ahead.take('q2')).toBeUndefined();
    expect(ahead.stats()).toMatchObject({ dropped: 2, held: 0 });
  });

  it('holds at most maxEntries pages, dropping the oldest', async () => {
    const { ahead } = setup(2);
    for (const k of ['a', 'b', 'c']) ahead.start(k, async () => k);
    expect(ahead.take('a')).toBeUndefined();
    await expect(ahead.take('b')).resolves.toBe('b');
    await expect(ahead.take('c')).resolves.toBe('c');
    expect(ahead.stats()).toMatchObject({ started: 3, dropped: 1 });
  });

  it('turns a failed read into no page, without an unhandled rejection', async () => {
    const { ahead } = setup();
    ahead.start('p2', async () => {
      throw new Error('connection reset');
    });
    await expect(ahead.take('p2')).resolves.toBeUndefined();
  });
});
