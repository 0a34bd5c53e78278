// Follows a listing's nextCursor from the first page to the last, checking each page is a 200
// and that the last one says so (hasMore false, nextCursor null).
import { expect } from 'vitest';
import { http } from './http.ts';

export async function walkPages<T = { id: string; [k: string]: unknown }>(
  base: string,
  path: string,
  query: string,
  key: string,
  maxPages = 50,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < maxPages; i++) {
    const r: { status: number; body: any } = await http(
      base,
      'GET',
      `${path}?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(...r.body.data);
    if (!r.body.hasMore) {
      expect(r.body.nextCursor).toBeNull();
      return out;
    }
    cursor = r.body.nextCursor;
  }
  throw new Error(`${path}?${query} did not end within ${maxPages} pages`);
}
