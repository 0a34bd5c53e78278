// readJsonArray, the reader of the registry dumps: the same elements as a JSON.parse of the whole
// text, however the bytes are cut into chunks, and an error for anything that is not one array.
// readJsonArrayBatches: the same elements, in batches of the size asked, whatever the chunks.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJsonArray, readJsonArrayBatches } from '../../src/sources/json-array.ts';

async function read(input: (Buffer | string)[] | Readable): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const x of readJsonArray(Array.isArray(input) ? Readable.from(input) : input, 'test dump')) out.push(x);
  return out;
}

/** The text whole, cut at every position, and byte by byte (multi-byte characters split). */
function cuts(text: string): Buffer[][] {
  const bytes = Buffer.from(text, 'utf8');
  const all: Buffer[][] = [[bytes], [...bytes].map((b) => Buffer.from([b]))];
  for (let i = 1; i < bytes.length; i++) all.push([bytes.subarray(0, i), bytes.subarray(i)]);
  return all;
}

const VALID = [
  '[]',
  ' \n[ ]\n ',
  '[1,2,3]',
  '[true,false,null,"s",-1.5e3,0]',
  '[[],[[]],{},{"a":[]}]',
  '[{"a":1},{"b":[1,2,{"c":"]"}]}]',
  '[{"k":"}{][,\\"}"},"a,b"]',
  '["c\\"d]", "e\\\\", "\\\\\\"", "\\u00e6"]',
  '[{"navn":"Ærlig Øl & Å AS","adresse":["Storgata 1"]}]',
];

const INVALID = [
  '',
  '   ',
  '{"a":1}',
  '1',
  'garbage',
  '[1,]',
  '[,1]',
  '[1,,2]',
  '[1 2]',
  '[1,2',
  '[{"a":1}',
  '[1]x',
  '[1]]',
  '[1]\n[2]',
  '[{"a":1]]',
  '[{"a":[1}]',
  '[1}',
  '[tru]',
  '[01]',
  '["\u0001"]',
  '["open',
];

describe('readJsonArray', () => {
  it.each(VALID)('reads %s as JSON.parse does, however it is chunked', async (text) => {
    for (const chunks of cuts(text)) expect(await read(chunks)).toEqual(JSON.parse(text));
  });

  it.each(INVALID)('refuses %j, however it is chunked', async (text) => {
    for (const chunks of cuts(text))
      await expect(read(chunks)).rejects.toThrow(/^test dump: cannot read the JSON array: /);
  });

  it('names the position of a malformed element, never its text (dumps hold names and addresses)', async () => {
    const text = '[{"navn":"Kari Nordmann"},{"navn":"Ola Nordmann", "fodt": 1980-}]';
    const err = await read([text]).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('test dump: cannot read the JSON array: element 2 is not valid JSON');
  });

  it('skips a leading byte-order mark', async () => {
    expect(await read([Buffer.from('\ufeff[1,{"a":"b"}]', 'utf8')])).toEqual([1, { a: 'b' }]);
  });

  it('yields the elements before a malformed one, then fails', async () => {
    const seen: unknown[] = [];
    const reading = (async () => {
      for await (const x of readJsonArray(Readable.from(['[{"a":1},{"a":2},{"a":']), 'test dump')) seen.push(x);
    })();
    await expect(reading).rejects.toThrow(/array ends early/);
    expect(seen).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('passes on an error of the input stream', async () => {
    const input = new Readable({ read() {} });
    input.push('[1,');
    setTimeout(() => input.destroy(new Error('connection reset')), 5);
    await expect(read(input)).rejects.toThrow('test dump: cannot read the JSON array: connection reset');
  });

  it('reads a large array of objects in one piece each, across chunk boundaries', async () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({
      organisasjonsnummer: String(900000000 + i),
      navn: `Firma ${i} "\\ æøå`,
      tall: [i, i / 2],
    }));
    const text = JSON.stringify(items);
    const chunks: Buffer[] = [];
    const bytes = Buffer.from(text, 'utf8');
    for (let i = 0; i < bytes.length; i += 977) chunks.push(bytes.subarray(i, i + 977));
    expect(await read(chunks)).toEqual(items);
  });
});

describe('readJsonArrayBatches', () => {
  const items = Array.from({ length: 2501 }, (_, i) => ({ n: i, navn: `Firma ${i} æøå` }));
  const bytes = Buffer.from(JSON.stringify(items), 'utf8');
  const chunked = (size: number) => {
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
    return chunks;
  };

  it.each([1, 977, 65536, bytes.length])(
    'yields every element in order, in batches of the size asked, from chunks of %i bytes',
    async (chunkSize) => {
      const batches: unknown[][] = [];
      for await (const b of readJsonArrayBatches(Readable.from(chunked(chunkSize)), 'test dump', 1000)) batches.push(b);
      expect(batches.map((b) => b.length)).toEqual([1000, 1000, 501]);
      expect(batches.flat()).toEqual(items);
    },
  );

  it('yields no batch for an empty array, and refuses what is not one array', async () => {
    const batches: unknown[][] = [];
    for await (const b of readJsonArrayBatches(Readable.from(['[ ]']), 'test dump', 10)) batches.push(b);
    expect(batches).toEqual([]);
    const reading = (async () => {
      for await (const b of readJsonArrayBatches(Readable.from(['[1,2,{"a":']), 'test dump', 1)) batches.push(b);
    })();
    await expect(reading).rejects.toThrow('test dump: cannot read the JSON array: the array ends early');
    expect(batches).toEqual([[1], [2]]);
  });
});
