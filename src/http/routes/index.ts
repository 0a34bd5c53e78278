// Every route module, registered in one place.
import type { Api, RouteDeps } from '../types.ts';
import accessRequests from './api/access-requests.ts';
import health from './api/health.ts';
import register from './api/keys/register.ts';
import rotate from './api/keys/rotate.ts';
import usage from './api/keys/usage.ts';
import municipalities from './api/municipalities.ts';
import home from './home.ts';
import setup from './setup.ts';
import companyLookup from './api/companies/lookup.ts';
import companyEnrich from './api/companies/enrich.ts';
import companySearch from './api/companies/search.ts';
import companyMatch from './api/companies/match.ts';
import reconcile from './api/reconcile.ts';
import reconcileUrl from './api/keys/reconcile-url.ts';
import updates from './api/change-feed.ts';
import destinationCollection from './api/destinations/collection.ts';
import destinationItem from './api/destinations/item.ts';
import push from './api/push.ts';
import integrationWebhooks from './api/integrations/webhooks.ts';
import hubspotInstall from './api/integrations/hubspot-install.ts';
import companyShareholders from './api/companies/shareholders.ts';
import companyGroup from './api/companies/group.ts';
import companyOwners from './api/companies/owners.ts';
import companyOwnershipChanges from './api/companies/ownership-changes.ts';
import shareholdersByOwner from './api/shareholders/by-owner.ts';
import webProfile from './api/web-profile.ts';
import inspections from './api/inspections.ts';
import licenses from './api/licenses.ts';
import screening from './api/screening.ts';
import screeningMatch from './api/screening-match.ts';
import screeningAudit from './api/screening-audit.ts';
import evidenceCreate from './api/companies/evidence.ts';
import evidence from './api/evidence.ts';
import jwks from './well-known/jwks.ts';
import operator from './internal/operator.ts';
import coverage from './api/coverage.ts';
import marketContext from './api/market-context.ts';
import mcp from './api/mcp.ts';
import oauthEndpoints from './api/oauth/endpoints.ts';
import oauthAuthorize from './api/oauth/authorize.ts';
import procurementSearch from './api/procurement/search.ts';
import procurementNotice from './api/procurement/notice.ts';
import eventsList from './api/events/list.ts';
import eventStream from './api/events/stream.ts';
import watchlists from './api/watchlists/collection.ts';
import watchlistCompanies from './api/watchlists/companies.ts';
import errorsPage from './errors-page.ts';
import consolePages from './console.ts';

const ROUTES: ((app: Api, deps: RouteDeps) => void)[] = [
  register,
  rotate,
  usage,
  accessRequests,
  health,
  municipalities,
  home,
  setup,
  operator,
  companyEnrich,
  companyMatch,
  reconcile,
  reconcileUrl,
  companyLookup,
  companySearch,
  updates,
  destinationCollection,
  destinationItem,
  push,
  integrationWebhooks,
  hubspotInstall,
  companyShareholders,
  companyGroup,
  companyOwners,
  companyOwnershipChanges,
  shareholdersByOwner,
  webProfile,
  inspections,
  licenses,
  screening,
  screeningMatch,
  screeningAudit,
  evidenceCreate,
  evidence,
  jwks,
  coverage,
  marketContext,
  mcp,
  oauthEndpoints,
  oauthAuthorize,
  procurementSearch,
  procurementNotice,
  eventsList,
  eventStream,
  watchlists,
  watchlistCompanies,
  errorsPage,
  consolePages,
];

export function registerRoutes(app: Api, deps: RouteDeps) {
  for (const route of ROUTES) route(app, deps);
}
