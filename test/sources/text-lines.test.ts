import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, readCsvRecords, readLines } from '../../src/sources/text-lines.ts';
import { collect, errorOf, streamOf } from './stream-helpers.ts';

describe('readLines', () => {
  it('strips the BOM of line 1 only, handles CRLF, keeps blank lines and counts them', async () => {
    const lines = await collect(readLines(streamOf('\uFEFFa\r\n\r\n\uFEFFb\nc')));
    expect(lines).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: '' },
      { line: 3, text: '\uFEFFb' },
      { line: 4, text: 'c' },
    ]);
  });

  it('passes a source error on to the consumer', async () => {
    async function* failing() {
      yield Buffer.from('a\nb\n');
      throw new Error('disk gone');
    }
    const err = await errorOf(readLines(Readable.from(failing(), { objectMode: false })));
    expect(err.message).toBe('disk gone');
  });

  it('destroys the source when the consumer stops early', async () => {
    const input = streamOf('a\nb\nc\n');
    for await (const l of readLines(input)) if (l.line === 1) break;
    expect(input.destroyed).toBe(true);
  });
});

describe('readCsvRecords', () => {
  it('numbers each record by the line it starts on, across quoted line breaks and empty lines', async () => {
    const records = await collect(readCsvRecords(streamOf('\uFEFFh1;h2\n"a\nb";c\n\n\nd;"e""f"\n'), ';'));
    expect(records).toEqual([
      { line: 1, fields: ['h1', 'h2'] },
      { line: 2, fields: ['a\nb', 'c'] },
      { line: 6, fields: ['d', 'e"f'] },
    ]);
  });

  it('passes a source error on to the consumer', async () => {
    async function* failing() {
      yield Buffer.from('a;b\n');
      throw new Error('disk gone');
    }
    const err = await errorOf(readCsvRecords(Readable.from(failing(), { objectMode: false }), ';'));
    expect(err.message).toBe('disk gone');
  });

  it('reports syntax errors with a line', async () => {
    const err = await errorOf(readCsvRecords(streamOf('a;b\n"x;y\n'), ';'));
    expect(err).toBeInstanceOf(CsvSyntaxError);
    expect(err.message).toMatch(/line \d/);
  });
});
