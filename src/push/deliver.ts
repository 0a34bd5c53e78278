// One webhook request through the SSRF-safe client, and its outcome as a fixed failure class.
// Nothing the receiver sends (body, headers, reason phrase) ever reaches the caller or the
// logs: a receiver is untrusted, and echoing it would turn push into a way to read
// responses of arbitrary services.
import { safeFetch, SafeFetchError, type DestinationOptions, type Resolver } from '../net/index.ts';
import { randomUUID } from 'node:crypto';
import { signatureHeaders } from './signing.ts';
import type { WebhookConfig } from './webhook-config.ts';

const PUSH_TIMEOUT_MS = 10_000;
/** The receiver's answer is read up to this many bytes and discarded. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

type FailureClass = 'http_status' | 'timeout' | 'network' | 'blocked' | 'invalid_request';

export interface DeliveryFailure {
  class: FailureClass;
  /** The receiver's HTTP status, for `http_status`. */
  status?: number;
  /** Fixed text per class; never anything the receiver sent. */
  message: string;
}

export type DeliveryOutcome =
  { ok: true; status: number } | { ok: false; failure: DeliveryFailure; /** for logs only */ reason?: string };

const MESSAGES: Record<FailureClass, string> = {
  http_status: 'The destination answered with a non-2xx status',
  timeout: `The destination did not answer within ${PUSH_TIMEOUT_MS / 1000} seconds`,
  network: 'The destination could not be reached',
  blocked: 'The destination address is not allowed',
  invalid_request: 'The request could not be built from the destination config',
};

// Public webhook receivers may listen on 80, 443 or any unprivileged port (8443, 3000 …);
// the other privileged ports belong to non-HTTP services (SMTP, SSH …) that an HTTP body
// must not be thrown at.
const WEBHOOK_PORTS: number[] = [80, 443, ...Array.from({ length: 65535 - 1023 }, (_, i) => 1024 + i)];

interface NetPolicyInput {
  resolver: Resolver;
  /** ALLOW_PRIVATE_DESTINATIONS. */
  allowPrivate: boolean;
}

/** The vetting options used both when a destination is saved and when it is called. */
export function webhookNetPolicy(p: NetPolicyInput): DestinationOptions {
  return {
    resolver: p.resolver,
    allowPrivate: p.allowPrivate,
    allowedSchemes: ['https', 'http'],
    allowedPorts: p.allowPrivate ? 'any' : WEBHOOK_PORTS,
  };
}

interface DeliverOptions extends NetPolicyInput {
  now: Date;
  timeoutMs?: number;
  /** Standard Webhooks message id (default: a random one). */
  msgId?: string;
}

function failure(cls: FailureClass, status?: number): DeliveryFailure {
  return status === undefined ? { class: cls, message: MESSAGES[cls] } : { class: cls, status, message: MESSAGES[cls] };
}

/** Sends `body` (JSON text) once; never retries, never follows a redirect. */
export async function deliverWebhook(
  config: WebhookConfig,
  body: string,
  opts: DeliverOptions,
): Promise<DeliveryOutcome> {
  const headers: Record<string, string> = {
    ...config.headers,
    'content-type': 'application/json',
    // Every message carries its webhook-id (the same on every retry of a batch), signed or not,
    // so a receiver can drop a duplicate even without a signing secret.
    ...(config.signingSecret
      ? signatureHeaders(config.signingSecret, body, opts.now, opts.msgId)
      : { 'webhook-id': opts.msgId ?? `msg_${randomUUID()}` }),
  };
  try {
    const res = await safeFetch(config.url, {
      ...webhookNetPolicy(opts),
      method: config.method,
      headers,
      body,
      maxRedirects: 0,
      timeoutMs: opts.timeoutMs ?? PUSH_TIMEOUT_MS,
      maxBodyBytes: MAX_RESPONSE_BYTES,
    });
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    return { ok: false, failure: failure('http_status', res.status) };
  } catch (err) {
    if (!(err instanceof SafeFetchError)) throw err;
    const cls: FailureClass =
      err.kind === 'blocked'
        ? 'blocked'
        : err.kind === 'timeout'
          ? 'timeout'
          : err.kind === 'invalid-request'
            ? 'invalid_request'
            : 'network';
    // Our own error texts name the host at most (src/net/errors.ts); fine for a log line.
    const reason = err.kind === 'network' ? ((err as { code?: string }).code ?? 'network') : err.message;
    return { ok: false, failure: failure(cls), reason };
  }
}
