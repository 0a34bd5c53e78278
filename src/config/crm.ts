// The crm section: where the CRM destinations' APIs live (tests point them at local fakes), and
// the HubSpot app that OAuth installs and webhook signatures belong to.
import { str, url, type Env } from './env.ts';

export interface CrmConfig {
  /** HubSpot's API host (CRM v3, properties, OAuth token endpoint). */
  hubspotBaseUrl: string;
  /** Attio's REST API root (without /v2). */
  attioBaseUrl: string;
  /** The HubSpot app's OAuth client; both set enable GET /api/integrations/hubspot/install. */
  hubspotClientId: string | undefined;
  hubspotClientSecret: string | undefined;
  /** Verifies X-HubSpot-Signature-v3 of incoming webhooks (the app's client secret); unset: the webhook route refuses. */
  hubspotAppSecret: string | undefined;
}

export function crm(env: Env): CrmConfig {
  const clientSecret = str(env, 'HUBSPOT_CLIENT_SECRET');
  return {
    hubspotBaseUrl: url(env, 'HUBSPOT_BASE_URL', 'https://api.hubapi.com', ['http', 'https'])!,
    attioBaseUrl: url(env, 'ATTIO_BASE_URL', 'https://api.attio.com', ['http', 'https'])!,
    hubspotClientId: str(env, 'HUBSPOT_CLIENT_ID'),
    hubspotClientSecret: clientSecret,
    // HubSpot signs webhooks with the app's client secret; a separate value may be given.
    hubspotAppSecret: str(env, 'HUBSPOT_APP_SECRET') ?? clientSecret,
  };
}
