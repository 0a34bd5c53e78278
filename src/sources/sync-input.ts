// The input of a file sync: a local file (`--file`), a URL (`--url`) or the job's default (a
// configured URL, or the download of an upstream client). Every job opens its input here, so
// all of them tell gzip and ZIP by their first bytes (not by the name: downloads get renamed),
// unzip gzip on the fly, send one user agent and give up on a silent server after the same
// deadlines.
import { createReadStream, statSync } from 'node:fs';
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Agent, fetch } from 'undici';
import { meteredInput } from '../net/sync-meter.ts';

export const SYNC_USER_AGENT = 'nordic-company-data';
/** Time allowed for the response headers of a download (the body may take many minutes). */
const HEADERS_TIMEOUT_MS = 60_000;
/** Time allowed between two pieces of a download's body before it counts as broken off. */
const BODY_TIMEOUT_MS = 300_000;

/** Where the operator pointed the sync; neither means the job's default. */
export interface InputChoice {
  file?: string;
  url?: string;
}

interface OpenOptions {
  /** Neither file nor URL given: this URL (configuration), or an upstream client's download. */
  fallback?: string | (() => Promise<Readable>);
  /** The error when there is no file, no URL and no fallback. */
  missing?: string;
  /** The `accept` header of a download. */
  accept?: string;
  /** Deadlines of a download (tests shorten them). */
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
}

type InputKind = 'zip' | 'gzip' | 'plain';

interface SyncInput {
  /** The content: unzipped when the bytes were gzip; a ZIP as it is (see `zipSource`). */
  stream: Readable;
  /** What the bytes were, by their magic numbers. */
  kind: InputKind;
  /** The local file, when the input is one. */
  file?: string;
  /** The file path or the URL's path (never its query, which may hold a token); `upstream` for a client's download. */
  location: string;
}

function kindOf(head: Buffer): InputKind {
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  return 'plain';
}

/**
 * The first `n` bytes of a byte stream, left in place: the stream still starts with them (fewer
 * when the stream is shorter). read(n) and unshift() run in one tick: at the end of a short
 * stream read(n) hands over what is left, and the unshift comes before 'end' could be emitted.
 */
export async function peek(input: Readable, n: number): Promise<Buffer> {
  // One set of listeners for the whole wait: a 'readable' listener added anew while bytes are
  // buffered fires at once, which would spin without new data arriving.
  let wake = () => {};
  let failure: Error | undefined;
  const onEvent = () => wake();
  const onError = (err: Error) => {
    failure = err;
    wake();
  };
  input.on('readable', onEvent);
  input.on('end', onEvent);
  input.on('close', onEvent);
  input.on('error', onError);
  try {
    for (;;) {
      const error = failure ?? input.errored;
      if (error) throw error;
      const chunk = input.read(n) as Buffer | string | null;
      if (chunk !== null) {
        input.unshift(chunk);
        return (typeof chunk === 'string' ? Buffer.from(chunk) : chunk).subarray(0, n);
      }
      if (input.readableEnded || input.destroyed) return Buffer.alloc(0);
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    input.off('readable', onEvent);
    input.off('end', onEvent);
    input.off('close', onEvent);
    input.off('error', onError);
  }
}

function gunzip(input: Readable): Readable {
  // pipeline, not pipe: an error of the input reaches the reader, and a reader that gives up
  // closes the input (a file handle, a connection).
  return pipeline(input, createGunzip(), () => undefined);
}

/**
 * Opens the input: `file`, else `url`, else the fallback; throws `missing` when there is none.
 * A download that does not answer 2xx throws `<url> answered <status>`.
 */
export async function openSyncInput(choice: InputChoice, options: OpenOptions = {}): Promise<SyncInput> {
  const { raw, file, location } = await openRaw(choice, options);
  try {
    const kind = kindOf(await peek(raw, 4));
    return { stream: kind === 'gzip' ? gunzip(raw) : raw, kind, file, location };
  } catch (err) {
    raw.destroy();
    throw err;
  }
}

/** A ZIP's directory is at its end: a local file is read in place, a download is spooled first (nordic-zip.ts). */
export function zipSource(input: SyncInput): string | Readable {
  if (input.file === undefined) return input.stream;
  input.stream.destroy();
  return input.file;
}

async function openRaw(choice: InputChoice, options: OpenOptions) {
  // Bytes are counted before gunzip: the percentage is of the file or download as it comes.
  if (choice.file) {
    const raw = meteredInput(createReadStream(choice.file), statSync(choice.file, { throwIfNoEntry: false })?.size);
    return { raw, file: choice.file, location: choice.file };
  }
  const { fallback } = options;
  const url = choice.url ?? (typeof fallback === 'string' ? fallback : undefined);
  if (url) {
    const { body, length } = await download(url, options);
    return { raw: meteredInput(body, length), location: new URL(url).pathname };
  }
  if (typeof fallback === 'function') return { raw: meteredInput(await fallback(), undefined), location: 'upstream' };
  throw new Error(options.missing ?? 'No input: give --file PATH or --url URL');
}

const agents = new Map<number, Agent>();
/** One connection pool per body deadline (in practice one): undici enforces the deadline per socket read. */
function agentFor(bodyTimeoutMs: number): Agent {
  let agent = agents.get(bodyTimeoutMs);
  if (!agent) agents.set(bodyTimeoutMs, (agent = new Agent({ bodyTimeout: bodyTimeoutMs })));
  return agent;
}

/** Why a request failed, in words (fetch's own message is only "fetch failed"). */
function reasonOf(err: unknown, bodyTimeoutMs: number): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'UND_ERR_BODY_TIMEOUT') return `no data for ${bodyTimeoutMs} ms`;
  return cause?.message ?? (err as Error).message;
}

/** GETs a file and returns its body as a byte stream, and its length when the server says it. */
async function download(url: string, options: OpenOptions): Promise<{ body: Readable; length?: number }> {
  const headersMs = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const bodyMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), headersMs);
  let res: Awaited<ReturnType<typeof fetch>>;
  try {
    res = await fetch(url, {
      headers: { accept: options.accept ?? '*/*', 'user-agent': SYNC_USER_AGENT },
      signal: controller.signal,
      dispatcher: agentFor(bodyMs),
    });
  } catch (err) {
    const why = controller.signal.aborted ? `no response within ${headersMs} ms` : reasonOf(err, bodyMs);
    throw new Error(`${url}: request failed: ${why}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  const body = res.body;
  if (!res.ok || !body) {
    await body?.cancel().catch(() => undefined);
    throw new Error(`${url} answered ${res.status}`);
  }
  async function* chunks() {
    try {
      for await (const chunk of body!) yield chunk;
    } catch (err) {
      throw new Error(`${url}: download broke off: ${reasonOf(err, bodyMs)}`, { cause: err });
    }
  }
  // Content-Length counts the bytes as sent (still gzipped under Content-Encoding: gzip).
  const length = Number(res.headers.get('content-length'));
  return { body: Readable.from(chunks(), { objectMode: false }), length: length > 0 ? length : undefined };
}
