// A raw HTTP client for the reliability scenarios (undici: any method, header, content type
// or body), and the checks every error body must pass.
import { Agent, type Dispatcher } from 'undici';

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export const agent = new Agent({ connections: 64, headersTimeout: 60_000, bodyTimeout: 60_000 });

export async function send(
  url: string,
  opts: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs?: number;
    dispatcher?: Dispatcher;
  } = {},
): Promise<WireResponse> {
  // The path goes out exactly as given: a URL parser would drop dot segments (`/a/./b` is
  // `/a/b`, `%2E` included), and the fuzzer's path values include `.` and `..`.
  const [, origin, path] = /^(https?:\/\/[^/?#]+)(.*)$/.exec(url) ?? [];
  if (!origin) throw new Error(`not an http(s) URL: ${url}`);
  const res = await (opts.dispatcher ?? agent).request({
    origin,
    path: path || '/',
    method: (opts.method ?? 'GET') as 'GET',
    headers: opts.headers,
    body: opts.body,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
  });
  // An event stream (SSE) stays open by design: its status and headers are the answer.
  if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    // undici fails an unfinished body with an AbortError on destroy; that is the intent here.
    res.body.on('error', () => {});
    res.body.destroy();
    return { status: res.statusCode, headers: res.headers, text: '', json: undefined };
  }
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

// What a leaked stack trace or SQL statement looks like in a response body.
const LEAK = [
  /\bat [\w$.<>]+ \(?(?:file:\/\/|node:|\/)[^)\s]*:\d+:\d+\)?/, // stack frame
  /node:internal|node_modules\//,
  /\b(?:SELECT\s+[\w*"]+.*\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b/i,
  /\b(?:syntax error at or near|relation "\w+" does not exist|duplicate key value violates|violates (?:foreign key|not-null|check) constraint|column "\w+" (?:of relation|does not exist))/i,
  /\b(?:TypeError|ReferenceError|RangeError): /,
];

/** Why this error body leaks internals, or undefined. */
export function leak(text: string): string | undefined {
  for (const re of LEAK) {
    const m = re.exec(text);
    if (m) return `matches ${re}: ${m[0].slice(0, 120)}`;
  }
  return undefined;
}
