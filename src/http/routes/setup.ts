// GET /setup?key=… — the page the setup link opens: how to use the key. Rendered on the
// server without scripts; never cached, never sent as a referrer, and the request log strips
// the key from the URL (app.ts).
import { Type } from 'typebox';
import { isWellFormedKey } from '../../domain/api-key.ts';
import type { Api, RouteDeps } from '../types.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export default function setupRoute(app: Api, { ctx }: RouteDeps) {
  app.get(
    '/setup',
    { schema: { hide: true, querystring: Type.Object({ key: Type.Optional(Type.String({ maxLength: 200 })) }) } },
    async (req, reply) => {
      const key = req.query.key && isWellFormedKey(req.query.key) ? req.query.key : undefined;
      const base = escapeHtml(ctx.config.baseUrl);
      const shownKey = key ? escapeHtml(key) : 'YOUR_API_KEY';
      reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').type('text/html; charset=utf-8');
      return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Your API key</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code,pre{background:#f3f3f3;padding:.2rem .4rem;border-radius:4px}pre{padding:1rem;overflow:auto}</style>
</head><body><h1>Nordic Company Data API</h1>
${key ? '<p>Your API key:</p>' : '<p>This link does not carry a valid key. Register one with <code>POST /api/keys/register</code>.</p>'}
<pre>${shownKey}</pre>
<p>Keep it secret. Send it as a bearer token:</p>
<pre>curl -H "Authorization: Bearer ${shownKey}" ${base}/api/keys/usage</pre>
<p>Rotate it if it leaks:</p>
<pre>curl -X POST -H "Authorization: Bearer ${shownKey}" ${base}/api/keys/rotate</pre>
<p>Reference: <a href="${base}/docs">${base}/docs</a></p></body></html>`;
    },
  );
}
