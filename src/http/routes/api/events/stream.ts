// GET /api/events/stream — the event log as Server-Sent Events. The route takes the
// key's stream slot, hijacks the reply and hands the socket to the process's SSE hub
// (services/event-stream.ts), which resumes after Last-Event-ID (or `after`) with no gap.
import { callerOf } from '../../../plugins/auth.ts';
import { errorResponses } from '../../../../contract/common.ts';
import { EventsExpired, EventStreamHeaders, EventStreamQuery, EventStreamText } from '../../../../contract/events.ts';
import { filterOf } from '../../../../services/monitoring/events.ts';
import type { Api, RouteDeps } from '../../../types.ts';

export default function eventStreamRoute(app: Api, { services }: RouteDeps) {
  // Open streams end when the server closes (the event-stream worker, runtime/workers.ts).

  app.get(
    '/api/events/stream',
    {
      config: { auth: 'key' },
      schema: {
        tags: ['monitoring'],
        summary: 'Company events as Server-Sent Events',
        description:
          'Each event is sent as `id: <seq>`, `event: <category>`, `data: <event JSON>` (as in GET /api/events). Reconnect with `Last-Event-ID` (or `after`) to resume with no gap. A comment line `: heartbeat` is sent every 15 s. Filters as in GET /api/events. Opening a stream counts as one request; each further minute it stays open counts one more against your daily and monthly quotas, and the stream ends when they are spent. Open streams per key: free 1, pro 10, enterprise and internal 100 (per server process). The key is re-checked every few seconds (`EVENT_STREAM_CREDENTIAL_CHECK_MS`, 5 s): once it is rotated or deactivated the stream sends `event: end` and closes.',
        security: [{ bearer: [] }],
        querystring: EventStreamQuery,
        headers: EventStreamHeaders,
        response: {
          // Documented as text/event-stream, not JSON: the reply is hijacked and written as SSE.
          200: {
            description: 'The event stream',
            content: {
              'text/event-stream': {
                schema: EventStreamText,
              },
            },
          },
          410: EventsExpired,
          ...errorResponses(400, 401, 402, 429, 500),
        },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const header = req.headers['last-event-id'];
      const after = typeof header === 'string' ? Number(header) : (req.query.after ?? 0);
      await services.events.checkRetention(after);
      const release = services.events.openStream(caller);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 2000\n\n');
      let end: () => void = () => undefined;
      raw.on('close', () => {
        end();
        release();
      });
      const sink = {
        write: (text: string) => {
          raw.write(text);
          return raw.writableLength;
        },
        close: () => raw.end(),
      };
      try {
        end = await services.eventStream.subscribe(
          after,
          filterOf(req.query),
          sink,
          () => services.chargeStreamMinute(caller),
          { id: `key:${caller.keyId}`, valid: () => services.streamCredentialValid(caller) },
        );
        if (raw.destroyed) end();
      } catch (err) {
        req.log.warn({ err: (err as Error).message }, 'event stream could not start');
        release();
        raw.end();
      }
    },
  );
}
