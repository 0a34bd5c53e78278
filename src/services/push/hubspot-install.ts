// The HubSpot OAuth install: GET /api/integrations/hubspot/install sends the caller to HubSpot's
// authorize page with a signed state naming their project (ten minutes valid); the callback
// checks the state, trades the code for tokens at HubSpot's token endpoint, asks which portal
// they belong to and stores destination `hubspot-<portalId>` with the tokens sealed in its config.
import { randomBytes } from 'node:crypto';
import type { CrmConfig } from '../../config/index.ts';
import type { Clock } from '../../domain/clock.ts';
import { deriveKey, hmacHex, safeEqual } from '../../domain/secrets.ts';
import { ApiError, invalid } from '../../errors.ts';
import { CrmError } from '../../push/crm-http.ts';
import { hubspotToken, hubspotTokenPortal } from '../../push/hubspot/client.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { DestinationService } from './destinations.ts';

/** HubSpot's authorize page (developers.hubspot.com, OAuth guide "Initiating OAuth access"). */
export const HUBSPOT_AUTHORIZE_URL = 'https://app.hubspot.com/oauth/authorize';
export const HUBSPOT_SCOPES = [
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.schemas.companies.read',
  'crm.schemas.companies.write',
];
const STATE_TTL_MS = 10 * 60 * 1000;

export interface HubspotInstallDeps {
  destinations: DestinationService;
  clock: Clock;
  secretKey: string;
  config: { crm: CrmConfig };
}

export function createHubspotInstall(deps: HubspotInstallDeps) {
  const key = deriveKey(deps.secretKey, 'crm-oauth-state');

  function client() {
    const { hubspotClientId: id, hubspotClientSecret: secret } = deps.config.crm;
    if (!id || !secret)
      throw new ApiError('integration_not_configured', {
        message: 'HubSpot install is not configured on this server: set HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET',
      });
    return { id, secret };
  }

  const redirectUri = (baseUrl: string) => `${baseUrl.replace(/\/$/, '')}/api/integrations/hubspot/callback`;

  function state(projectId: number): string {
    const body = Buffer.from(
      JSON.stringify({ p: projectId, e: deps.clock.now().getTime() + STATE_TTL_MS, n: randomBytes(8).toString('hex') }),
    ).toString('base64url');
    return `${body}.${hmacHex(key, body)}`;
  }

  function projectOf(s: string | undefined): number {
    const [body, mac] = (s ?? '').split('.');
    if (!body || !mac || !safeEqual(hmacHex(key, body), mac))
      throw invalid('query.state', 'is not a state this server issued');
    const v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: number; e: number };
    if (v.e < deps.clock.now().getTime()) throw invalid('query.state', 'has expired; start the install again');
    return v.p;
  }

  return {
    /** The authorize URL for the caller's project. */
    installUrl(caller: AuthContext, baseUrl: string): string {
      const c = client();
      const q = new URLSearchParams({
        client_id: c.id,
        redirect_uri: redirectUri(baseUrl),
        scope: HUBSPOT_SCOPES.join(' '),
        state: state(caller.projectId),
      });
      return `${HUBSPOT_AUTHORIZE_URL}?${q}`;
    },

    async callback(q: { code?: string; state?: string; error?: string }, baseUrl: string) {
      const c = client();
      if (q.error) throw invalid('query.error', `HubSpot did not authorize the install (${q.error.slice(0, 100)})`);
      if (!q.code) throw invalid('query.code', 'is required');
      const projectId = projectOf(q.state);
      try {
        const t = await hubspotToken(deps.config.crm.hubspotBaseUrl, {
          grant_type: 'authorization_code',
          client_id: c.id,
          client_secret: c.secret,
          redirect_uri: redirectUri(baseUrl),
          code: q.code,
        });
        const portalId = await hubspotTokenPortal(deps.config.crm.hubspotBaseUrl, t.accessToken);
        const expiresAt = new Date(deps.clock.now().getTime() + t.expiresInS * 1000).toISOString();
        const name = await deps.destinations.upsertInstalled(projectId, portalId, {
          accessToken: t.accessToken,
          refreshToken: t.refreshToken,
          expiresAt,
        });
        return { destination: name, type: 'hubspot' as const, portalId };
      } catch (err) {
        if (err instanceof CrmError)
          throw new ApiError('crm_unavailable', { message: `${err.message}; no destination was stored` });
        throw err;
      }
    },
  };
}

export type HubspotInstall = ReturnType<typeof createHubspotInstall>;
