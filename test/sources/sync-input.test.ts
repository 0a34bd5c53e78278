// The one way a sync opens its input: file, URL or the job's default; gzip and ZIP told by their
// first bytes; one user agent; deadlines for a server that does not answer or stops sending.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSyncInput, peek, SYNC_USER_AGENT, zipSource } from '../../src/sources/sync-input.ts';
import { streamOf } from './stream-helpers.ts';

const ZIP_HEAD = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);

let dir: string;
let server: Server;
let base: string;
const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
/** Responses that never finish, ended when the suite is over. */
const held: ServerResponse[] = [];

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sync-input-'));
  server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://x').pathname;
    if (url === '/plain.csv') res.end('a;b\n1;2\n');
    else if (url === '/data.json.gz') res.end(gzipSync('[1,2,3]'));
    else if (url === '/silent') held.push(res);
    else if (url === '/stalls') {
      res.writeHead(200);
      res.write('[1,2,3,');
      held.push(res);
    } else {
      res.statusCode = 404;
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('peek', () => {
  it('returns the first bytes and leaves them in the stream, however it is chunked', async () => {
    const body = 'x'.repeat(40_000) + 'end';
    for (const cuts of [[], [1], [3, 5, 7], [20_000]]) {
      const s = streamOf(body, cuts);
      expect((await peek(s, 4)).toString()).toBe('xxxx');
      expect((await peek(s, 30_000)).length).toBe(30_000);
      expect(await text(s)).toBe(body);
    }
  });

  it('returns what there is of a stream shorter than asked, which still ends normally', async () => {
    const s = streamOf('ab', [1]);
    expect((await peek(s, 16 * 1024)).toString()).toBe('ab');
    expect(await text(s)).toBe('ab');
    const empty = streamOf('');
    expect((await peek(empty, 4)).length).toBe(0);
    expect(await text(empty)).toBe('');
  });

  it('passes on an error of the stream', async () => {
    const s = new Readable({ read() {} });
    setImmediate(() => s.destroy(new Error('disk gone')));
    await expect(peek(s, 4)).rejects.toThrow('disk gone');
  });
});

describe('openSyncInput', () => {
  it('reads a file plain or gzipped, telling them by their bytes and not their name', async () => {
    const plain = path.join(dir, 'data.gz');
    writeFileSync(plain, '[1,2]');
    const zipped = path.join(dir, 'data.json');
    writeFileSync(zipped, gzipSync('[3,4]'));
    const a = await openSyncInput({ file: plain });
    expect(a).toMatchObject({ kind: 'plain', file: plain, location: plain });
    expect(await text(a.stream)).toBe('[1,2]');
    const b = await openSyncInput({ file: zipped });
    expect(b.kind).toBe('gzip');
    expect(await text(b.stream)).toBe('[3,4]');
  });

  it('hands a ZIP file over by its path, and a downloaded ZIP as the stream', async () => {
    const zip = path.join(dir, 'bulk.zip');
    writeFileSync(zip, ZIP_HEAD);
    const input = await openSyncInput({ file: zip });
    expect(input.kind).toBe('zip');
    expect(zipSource(input)).toBe(zip);
    expect(input.stream.destroyed).toBe(true);
    const body = { kind: 'zip' as const, stream: streamOf(ZIP_HEAD), location: '/bulk.zip' };
    expect(zipSource(body)).toBe(body.stream);
  });

  it('fails on a missing file with the file system error', async () => {
    await expect(openSyncInput({ file: path.join(dir, 'nope.csv') })).rejects.toThrow(/ENOENT/);
  });

  it('downloads --url, else the fallback URL, with the user agent and the accept header', async () => {
    const a = await openSyncInput({ url: `${base}/plain.csv?token=secret` }, { accept: 'text/csv' });
    expect(a).toMatchObject({ kind: 'plain', location: '/plain.csv', file: undefined });
    expect(await text(a.stream)).toBe('a;b\n1;2\n');
    expect(requests.at(-1)?.headers).toMatchObject({ 'user-agent': SYNC_USER_AGENT, accept: 'text/csv' });
    const b = await openSyncInput({}, { fallback: `${base}/data.json.gz` });
    expect(b.kind).toBe('gzip');
    expect(await text(b.stream)).toBe('[1,2,3]');
    expect(requests.at(-1)?.path).toBe('/data.json.gz');
  });

  it("takes an upstream client's download as the fallback", async () => {
    const input = await openSyncInput({}, { fallback: async () => streamOf(gzipSync('from upstream')) });
    expect(input).toMatchObject({ kind: 'gzip', location: 'upstream' });
    expect(await text(input.stream)).toBe('from upstream');
  });

  it('says what is missing when there is no input at all', async () => {
    await expect(openSyncInput({}, { missing: 'No inspections source' })).rejects.toThrow('No inspections source');
    await expect(openSyncInput({})).rejects.toThrow('No input: give --file PATH or --url URL');
  });

  it('names the URL and the status of a download that is not 2xx', async () => {
    await expect(openSyncInput({ url: `${base}/missing.csv` })).rejects.toThrow(`${base}/missing.csv answered 404`);
  });

  it('gives up on a server that sends no headers, or stops sending the body', async () => {
    await expect(openSyncInput({ url: `${base}/silent` }, { headersTimeoutMs: 200 })).rejects.toThrow(
      `${base}/silent: request failed: no response within 200 ms`,
    );
    const input = await openSyncInput({ url: `${base}/stalls` }, { bodyTimeoutMs: 200 });
    await expect(text(input.stream)).rejects.toThrow(`${base}/stalls: download broke off: no data for 200 ms`);
  });
});
