// The HTTP baseline: a bare Fastify 5 route that answers with a record-sized JSON body held in
// memory (no auth, no store, no schema). Every HTTP scenario measures it with the same load
// settings in the same run, so each figure has a ratio to the framework's own ceiling.
//   node --import tsx bench/bare-server.ts <body.json>      (PORT from the environment)
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const app = Fastify({ logger: false });
app.get('/health', async () => ({ ok: true }));
app.get('/bare/:id', async () => body);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
