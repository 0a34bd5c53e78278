// GET/POST /api/oauth/authorize — the authorization endpoint and its consent page.
// GET checks the request (PKCE S256, registered redirect URI, resource) and shows the consent
// page; POST carries the user's choice (an existing key, a new free project, or deny) and
// redirects to the client with a code or the user's refusal. A faulty request gets an HTML error
// page, never an automatic redirect: before the redirect URI is validated there is nowhere safe
// to send it, and after, the page only links to the client's error response (no open redirect).
// Like /setup: never cached, no referrer, same CSP; the form may only post to this server and,
// since browsers apply form-action to the redirect that follows, to the client's redirect origin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AUTHORIZE_FIELDS,
  AuthorizeRedirect,
  AuthorizeRejection,
  ConsentProblem,
  type AuthorizeRequest,
} from '../../../../services/access/oauth-authorize.ts';
import { publicBaseUrl } from '../../../plugins/security-headers.ts';
import type { Api, RouteDeps } from '../../../types.ts';
import { renderAuthorizeErrorPage, renderConsentPage, renderConsentReceivedPage } from '../../../views/consent-page.ts';
import { acceptForms } from './scope.ts';

type Params = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function pageHeaders(reply: FastifyReply, redirectUri?: string) {
  reply
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex, nofollow')
    .type('text/html; charset=utf-8');
  const csp = reply.getHeader('content-security-policy');
  if (redirectUri && typeof csp === 'string')
    reply.header(
      'content-security-policy',
      csp.replace("form-action 'self'", `form-action 'self' ${new URL(redirectUri).origin}`),
    );
}

function hiddenOf(p: Params): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of AUTHORIZE_FIELDS) {
    const v = str(p[f]);
    if (v !== undefined) out[f] = v;
  }
  return out;
}

export default function authorizeRoute(app: Api, { ctx, services }: RouteDeps) {
  const flow = services.oauthAuthorize;

  /** The checked request, or the reply already sent (error page or redirect to the client). */
  async function checked(req: FastifyRequest, reply: FastifyReply, p: Params): Promise<AuthorizeRequest | undefined> {
    try {
      return await flow.check(p, publicBaseUrl(req, ctx.config));
    } catch (err) {
      if (err instanceof AuthorizeRejection) {
        pageHeaders(reply);
        await reply.code(400).send(renderAuthorizeErrorPage(err.message));
        return undefined;
      }
      if (err instanceof AuthorizeRedirect) {
        // Never redirected without the user: the page names the fault and links back.
        const description = new URL(err.location).searchParams.get('error_description') ?? 'Invalid request';
        pageHeaders(reply);
        await reply.code(400).send(renderAuthorizeErrorPage(description, err.location));
        return undefined;
      }
      throw err;
    }
  }

  function consent(reply: FastifyReply, r: AuthorizeRequest, p: Params, error?: ConsentProblem) {
    pageHeaders(reply, r.redirectUri);
    if (error?.retryAfter) reply.header('Retry-After', error.retryAfter);
    return reply.code(error?.status ?? 200).send(
      renderConsentPage({
        clientName: r.client.clientName,
        redirectUri: r.redirectUri,
        scopes: r.scopes,
        hidden: hiddenOf(p),
        error: error && { message: error.message, details: error.details },
        values: { projectName: str(p.projectName), email: str(p.email), description: str(p.description) },
      }),
    );
  }

  (app as unknown as FastifyInstance).register(async (scope) => {
    acceptForms(scope);

    scope.get('/api/oauth/authorize', { schema: { hide: true } }, async (req, reply) => {
      const p = req.query as Params;
      const r = await checked(req, reply, p);
      if (r) return consent(reply, r, p);
      return reply;
    });

    scope.post('/api/oauth/authorize', { schema: { hide: true } }, async (req, reply) => {
      const p = (req.body && typeof req.body === 'object' ? req.body : {}) as Params;
      const r = await checked(req, reply, p);
      if (!r) return reply;
      const base = publicBaseUrl(req, ctx.config);
      try {
        let location: string | undefined;
        const action = str(p.action);
        if (action === 'deny') location = flow.deny(r, base);
        else if (action === 'key') location = await flow.approveWithKey(r, str(p.key) ?? '', req.ip, base);
        else if (action === 'register') {
          const input = { projectName: p.projectName, email: p.email, description: p.description, website: p.website };
          location = await flow.approveWithNewProject(r, req.ip, input, base);
          if (location === undefined) {
            pageHeaders(reply);
            return reply.code(200).send(renderConsentReceivedPage());
          }
        } else
          throw new ConsentProblem(400, 'Choose how to allow access', [{ path: 'action', message: 'is required' }]);
        pageHeaders(reply, r.redirectUri);
        return reply.redirect(location, 302);
      } catch (err) {
        if (err instanceof ConsentProblem) return consent(reply, r, p, err);
        throw err;
      }
    });
  });
}
