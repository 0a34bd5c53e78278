// POST /internal/operator — runs an `ncd` command inside a running embedded server, whose
// process owns the data directory. The body is the typed command the CLI parsed (ops/command.ts),
// checked by its schema. Authorised by a token derived from SECRET_KEY (in DATA_DIR); progress
// streams back as NDJSON. Not part of the public API (hidden from OpenAPI).
import { PassThrough } from 'node:stream';
import { OperatorHeaders } from '../../../contract/operator.ts';
import { operatorToken } from '../../../ops/operator-token.ts';
import { runOperatorCommand } from '../../../ops/commands.ts';
import { OperatorCommandBody } from '../../../ops/command.ts';
import { safeEqual } from '../../../domain/secrets.ts';
import type { Api, RouteDeps } from '../../types.ts';

export default function operatorRoute(app: Api, { ctx, services }: RouteDeps) {
  const token = operatorToken(ctx.config.secretKey);
  app.post(
    '/internal/operator',
    {
      schema: {
        hide: true,
        headers: OperatorHeaders,
        body: OperatorCommandBody,
      },
    },
    async (req, reply) => {
      const given = req.headers['x-operator-token'];
      if (typeof given !== 'string' || !safeEqual(given, token)) {
        return reply.status(403).send({ error: 'Forbidden', code: 'forbidden', requestId: req.id });
      }
      const out = new PassThrough();
      const line = (o: object) => out.write(JSON.stringify(o) + '\n');
      runOperatorCommand(ctx, services, req.body, (message) => line({ type: 'progress', message }))
        .then((result) => line({ type: 'result', result }))
        .catch((err: Error) => line({ type: 'error', error: err.name, message: err.message }))
        .finally(() => out.end());
      return reply.type('application/x-ndjson').send(out);
    },
  );
}
