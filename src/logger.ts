// The pino logger shared by Fastify and jobs. Requests are logged without headers or client
// addresses. Secrets are redacted twice: by name (known headers and fields, and the usual secret
// query parameters), and by shape: any value that looks like one of our API keys is replaced
// wherever it sits in a log line (a key pasted into a search box, a custom header echoed in an
// error, a misnamed query parameter), because a name list can never be complete.
import pino, { type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { keyShaped } from './domain/api-key.ts';
import { serviceTokenShaped } from './domain/service-token.ts';

/**
 * Query or form parameters whose value is a secret whatever its shape: any name that says key,
 * token, secret, password, auth, signature or credential (`sync_secret`, `client_secret`,
 * `x-operator-token`, `signingSecret`, …), and the OAuth `code` and `code_verifier`.
 */
const SECRET_PARAM =
  /([?&;](?:[^=&#\s"\\]*?(?:key|token|secret|passw(?:or)?d|pwd|auth|signature|credential)[^=&#\s"\\]*|code|code_verifier)=)[^&#\s"\\]*/gi;
const KEY_SHAPE = keyShaped('g');
// A reconciliation service URL carries the key's service token in its path.
const TOKEN_SHAPE = serviceTokenShaped('g');
const REDACTED = '[redacted]';
/** A run of URL-ish text holding a percent-escape: decoded before it is checked. */
const ENCODED_RUN = /[^\s"'<>]*%[0-9A-Fa-f]{2}[^\s"'<>]*/g;

function redactPlain(text: string): string {
  return text.replace(SECRET_PARAM, `$1${REDACTED}`).replace(KEY_SHAPE, REDACTED).replace(TOKEN_SHAPE, REDACTED);
}

/** Percent-decodes up to three times (a double-encoded key is still a key); malformed escapes stay. */
function decoded(run: string): string {
  let text = run;
  for (let i = 0; i < 3 && /%[0-9A-Fa-f]{2}/.test(text); i++)
    text = text.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return text;
}

/**
 * A text (a URL, a log line) with secret parameters and key-shaped values replaced, after
 * percent-decoding too: `ncd%5F…` or `%73ync_secret=` is redacted like its plain form. A run that
 * decodes to something secret is written decoded with the secret replaced.
 */
export function redactText(text: string): string {
  const plain = redactPlain(text);
  return plain.replace(ENCODED_RUN, (run) => {
    const d = decoded(run);
    if (d === run) return run;
    const r = redactPlain(d);
    return r === d ? run : r;
  });
}

/**
 * `pretty`: pino-pretty's readable lines (colour on a terminal), written synchronously so the
 * last lines before exit are not lost. The redaction hooks run before either format.
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  format: 'json' | 'pretty' = 'json',
): Logger {
  const target =
    destination ??
    (format === 'pretty'
      ? pinoPretty({ sync: true, colorize: Boolean(process.stdout.isTTY), translateTime: 'SYS:HH:MM:ss.l' })
      : undefined);
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-sync-secret"]',
          'req.headers["x-operator-token"]',
          'req.headers.cookie',
          '*.raw',
          '*.secretKey',
          '*.password',
        ],
        censor: REDACTED,
      },
      serializers: {
        req: (req: { method?: string; url?: string; id?: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url ? redactText(req.url) : undefined,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
      hooks: {
        // By shape, on the finished line: whatever field, message or error text carries it.
        streamWrite: redactText,
      },
    },
    target,
  );
}
