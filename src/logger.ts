// The pino logger shared by Fastify and jobs. Requests are logged without headers, client
// addresses or query secrets (the setup link carries the raw key in `?key=`).
import pino, { type Logger } from 'pino';

const SECRET_QUERY = /([?&](?:key|token|secret)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
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
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method?: string; url?: string; id?: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url ? redactUrl(req.url) : undefined,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
    destination,
  );
}
