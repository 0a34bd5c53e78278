// The webhook destination config: the rules a config must meet when it is saved, and the
// masked view served back. Pure; the address check (DNS) is done by the caller with
// checkDestination, because it needs the resolver port.
import { isValidSigningSecret } from './signing.ts';

const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

export interface WebhookConfig {
  /** Normalised absolute URL (WHATWG serialisation), without a fragment. */
  url: string;
  method: WebhookMethod;
  headers: Record<string, string>;
  /** Write-only: never served back. */
  signingSecret?: string;
}

export interface WebhookConfigInput {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  signingSecret?: string;
}

interface ConfigDetail {
  path: string;
  message: string;
}

const MAX_HEADERS = 20;
const MAX_HEADER_VALUE_BYTES = 1024;
const MAX_URL_LENGTH = 2048;
const MASK = '***';

// Headers we set ourselves, or whose wrong value breaks the request framing or the
// connection: a user value would either be ignored, corrupt the request, or be refused by
// the HTTP client at send time. Refused at save time instead, with a clear message.
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'content-type',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

// RFC 9110 token.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, space, tab and Latin-1 (what fetch accepts as a ByteString); no CR, LF, NUL
// or other control characters, which would split or corrupt the header block.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Checks and normalises a config; `details` is empty when it is valid. */
export function validateWebhookConfig(
  input: WebhookConfigInput,
  path = 'body.config',
): { config: WebhookConfig; details: ConfigDetail[] } {
  const details: ConfigDetail[] = [];
  const add = (p: string, message: string) => details.push({ path: `${path}.${p}`, message });

  let url = input.url.trim();
  if (url.length > MAX_URL_LENGTH) add('url', `must be at most ${MAX_URL_LENGTH} characters`);
  else {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      add('url', 'must be an absolute http(s) URL');
    }
    if (parsed) {
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') add('url', 'must use https (or http)');
      else if (parsed.username || parsed.password) add('url', 'must not contain credentials; send them in a header');
      else if (!parsed.hostname) add('url', 'must name a host');
      parsed.hash = '';
      url = parsed.href;
    }
  }

  const method = (input.method ?? 'POST').toUpperCase();
  if (!(WEBHOOK_METHODS as readonly string[]).includes(method))
    add('method', `must be one of ${WEBHOOK_METHODS.join(', ')}`);

  const headers: Record<string, string> = {};
  const entries = Object.entries(input.headers ?? {});
  if (entries.length > MAX_HEADERS) add('headers', `must have at most ${MAX_HEADERS} entries`);
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const p = `headers.${name}`;
    const lower = name.toLowerCase();
    if (!TOKEN.test(name) || name.length > 256)
      add(p, "header name must be an HTTP token (letters, digits and !#$%&'*+.^_`|~-)");
    else if (RESERVED_HEADERS.has(lower)) add(p, `header ${name} is set by the service and cannot be configured`);
    else if (seen.has(lower)) add(p, 'header names must be unique (case-insensitively)');
    if (typeof value !== 'string') add(p, 'must be a string');
    else if (!HEADER_VALUE.test(value)) add(p, 'header value must not contain CR, LF or other control characters');
    else if (Buffer.byteLength(value, 'latin1') > MAX_HEADER_VALUE_BYTES)
      add(p, `header value must be at most ${MAX_HEADER_VALUE_BYTES} bytes`);
    seen.add(lower);
    headers[name] = typeof value === 'string' ? value.trim() : '';
  }

  if (input.signingSecret !== undefined && !isValidSigningSecret(input.signingSecret)) {
    add('signingSecret', 'must be 16-256 printable ASCII characters, or whsec_ followed by base64 of 16-128 bytes');
  }

  const config: WebhookConfig = { url, method: method as WebhookMethod, headers };
  if (input.signingSecret !== undefined) config.signingSecret = input.signingSecret;
  return { config, details };
}

/** The config as served: header names with masked values, whether signing is on. */
export function maskedConfig(c: WebhookConfig) {
  return {
    url: c.url,
    method: c.method,
    headers: Object.fromEntries(Object.keys(c.headers).map((k) => [k, MASK])),
    signing: c.signingSecret !== undefined,
  };
}

/** Non-fatal remarks about a config, served with the record. */
export function configWarnings(c: WebhookConfig): string[] {
  const out: string[] = [];
  if (c.url.startsWith('http:'))
    out.push('url uses plain http: company data and header values travel unencrypted; use https');
  return out;
}

/** A stored config read back: checks the shape, since it crossed a storage boundary. */
export function parseStoredConfig(value: unknown): WebhookConfig {
  const v = value as Partial<WebhookConfig> | null;
  if (
    !v ||
    typeof v.url !== 'string' ||
    typeof v.method !== 'string' ||
    typeof v.headers !== 'object' ||
    v.headers === null
  ) {
    throw new Error('stored webhook config has an unexpected shape');
  }
  return {
    url: v.url,
    method: v.method as WebhookMethod,
    headers: v.headers,
    ...(typeof v.signingSecret === 'string' ? { signingSecret: v.signingSecret } : {}),
  };
}
