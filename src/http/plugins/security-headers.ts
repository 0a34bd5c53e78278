// Security headers (helmet), and the public base URL of a request.
//
// helmet's defaults send `upgrade-insecure-requests` in the CSP and Strict-Transport-Security on
// every response. Over plain http on a LAN address that makes the browser fetch the page's own
// CSS and JS over https, which fails: /docs renders blank and /setup unstyled and unscripted
// (so its key also stayed in the address bar). Both are sent only when the request is https,
// directly or by X-Forwarded-Proto from a trusted proxy (TRUST_PROXY), or when BASE_URL is an
// explicit https URL (a TLS-terminating proxy that Fastify is not told to trust). The same goes
// for Cross-Origin-Opener-Policy, which browsers ignore (with a console error) on plain http.
import helmet from 'helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Config } from '../../config/index.ts';

const UPGRADE = 'upgrade-insecure-requests';
const HSTS = 'max-age=31536000; includeSubDomains';
// A Host header we are willing to echo into links: a name or address, an optional port.
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function isSecure(req: FastifyRequest, config: Config): boolean {
  return req.protocol === 'https' || (config.baseUrlConfigured && config.baseUrl.startsWith('https:'));
}

/**
 * Where this server is reachable for the client that sent `req`: BASE_URL when it was set,
 * else the request's own scheme and host (so a LAN or container deployment that left BASE_URL
 * alone still gets working setup links), falling back to the default for a malformed Host.
 */
export function publicBaseUrl(req: FastifyRequest, config: Config): string {
  if (config.baseUrlConfigured) return config.baseUrl;
  const host = req.host;
  return typeof host === 'string' && HOST.test(host) ? `${req.protocol}://${host.toLowerCase()}` : config.baseUrl;
}

/**
 * Adds or strips the https-only parts of the headers helmet (or Swagger UI) set. Idempotent. The
 * policy text is rewritten once per distinct (policy, scheme), not per response.
 */
function finish(config: Config) {
  const rewritten = new Map<string, string>();
  const rewrite = (csp: string, secure: boolean) => {
    const key = (secure ? 's' : 'p') + csp;
    let out = rewritten.get(key);
    if (out === undefined) {
      const directives = csp
        .split(';')
        .map((d) => d.trim())
        .filter((d) => d !== '' && d !== UPGRADE);
      if (secure) directives.push(UPGRADE);
      out = directives.join('; ');
      // A handful of policies exist (helmet's, Swagger UI's); the bound is only a guard.
      if (rewritten.size < 64) rewritten.set(key, out);
    }
    return out;
  };
  return (req: FastifyRequest, reply: FastifyReply) => {
    const secure = isSecure(req, config);
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string') reply.header('content-security-policy', rewrite(csp, secure));
    if (secure) reply.header('strict-transport-security', HSTS);
    else {
      reply.removeHeader('strict-transport-security');
      // Browsers ignore COOP on a plain-http origin other than localhost, and log a console
      // error for it on every page.
      reply.removeHeader('cross-origin-opener-policy');
    }
  };
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  // helmet's middleware, built once. (@fastify/helmet built it anew for every request: about a
  // tenth of the server's time on a cached lookup.)
  const apply = helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (req, reply, next) => apply(req.raw, reply.raw, (err) => next(err as Error | undefined)));
  const done = finish(config);
  const hook: onSendHookHandler = async (req, reply, payload) => {
    done(req, reply);
    return payload;
  };
  // Root hooks run before those of plugins (Swagger UI sets its own CSP in its onSend hook);
  // route-level hooks run after all of them, so every route also gets the hook as its last.
  app.addHook('onSend', hook);
  app.addHook('onRoute', (route) => {
    const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...own, hook];
  });
}
