// Cursor pagination as an async iterable: `for await (const row of client.companies.search(q))`
// follows `nextCursor` until the last page; `.page()` fetches one page when a caller wants to
// keep the cursor itself (e.g. across process restarts).

export interface CursorPage<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

export class Paginated<T, P extends CursorPage<T> = CursorPage<T>> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<P>) {}

  /** One page; pass the previous page's `nextCursor` for the next one. */
  page(cursor?: string): Promise<P> {
    return this.fetchPage(cursor);
  }

  /** Every page in turn. */
  async *pages(): AsyncGenerator<P, void, undefined> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      if (!page.hasMore || !page.nextCursor) return;
      cursor = page.nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Collects items into an array, stopping after `max` (default: all). */
  async toArray(max = Infinity): Promise<T[]> {
    const out: T[] = [];
    if (max <= 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= max) break;
    }
    return out;
  }
}
