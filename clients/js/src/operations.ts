// Which client method calls each operation of the API document, as `METHOD /path` -> the
// method's path on NcdClient. The type makes the table complete: an operation in the generated
// types without an entry here (or an entry for one that is gone) fails to compile, and the test
// suite checks the live /openapi.json against it and that each named method exists.
import type { paths } from './openapi.ts';
import type { Method } from './types.ts';

type Defined<P extends keyof paths, M extends Method> = [NonNullable<paths[P][M]>] extends [never] ? never : M;
/** Every operation of the generated types, e.g. `GET /api/companies/{orgNumber}`. */
export type OperationKey = {
  [P in keyof paths]: { [M in Method]: Defined<P, M> extends never ? never : `${Uppercase<M>} ${P & string}` }[Method];
}[keyof paths];

export const CLIENT_OPERATIONS = {
  'POST /api/keys/register': 'keys.register',
  'POST /api/keys/rotate': 'keys.rotate',
  'GET /api/keys/usage': 'keys.usage',
  'GET /api/keys/reconcile-url': 'keys.reconcileUrl',
  'POST /api/access-requests': 'accessRequests.create',
  'GET /api/health': 'health',
  'GET /api/coverage': 'coverage',
  'GET /api/municipalities': 'municipalities',
  'GET /api/market-context': 'marketContext',
  'GET /api/companies': 'companies.search',
  'GET /api/companies/{orgNumber}': 'companies.get',
  'POST /api/companies/enrich': 'companies.enrich',
  'POST /api/companies/match': 'companies.match',
  'GET /api/companies/{orgNumber}/shareholders': 'companies.shareholders',
  'GET /api/companies/{orgNumber}/group': 'companies.group',
  'GET /api/companies/{orgNumber}/owners': 'companies.owners',
  'GET /api/companies/{orgNumber}/ownership-changes': 'companies.ownershipChanges',
  'GET /api/shareholders/by-owner': 'shareholders.byOwner',
  'GET /api/updates': 'updates',
  'GET /api/enrichment': 'enrichment.list',
  'GET /api/inspections': 'inspections.search',
  'GET /api/licenses': 'licenses.search',
  'GET /api/screening/{orgNumber}': 'screening.get',
  'POST /api/screening/match': 'screening.match',
  'GET /api/screening/audit': 'screening.audit',
  'POST /api/companies/{orgNumber}/evidence': 'evidence.create',
  'GET /api/evidence': 'evidence.list',
  'GET /api/evidence/{id}': 'evidence.get',
  'GET /.well-known/jwks.json': 'evidence.jwks',
  'GET /api/procurement': 'procurement.search',
  'GET /api/procurement/{noticeId}': 'procurement.get',
  'GET /api/events': 'events.list',
  'GET /api/events/stream': 'events.stream',
  'GET /api/watchlists': 'watchlists.list',
  'POST /api/watchlists': 'watchlists.create',
  'GET /api/watchlists/{name}': 'watchlists.get',
  'PUT /api/watchlists/{name}': 'watchlists.update',
  'DELETE /api/watchlists/{name}': 'watchlists.delete',
  'POST /api/watchlists/{name}/companies': 'watchlists.addCompanies',
  'GET /api/watchlists/{name}/companies': 'watchlists.companies',
  'DELETE /api/watchlists/{name}/companies': 'watchlists.removeCompanies',
  'GET /api/watchlists/{name}/deliveries': 'watchlists.deliveries',
  'GET /api/destinations': 'destinations.list',
  'POST /api/destinations': 'destinations.create',
  'GET /api/destinations/{name}': 'destinations.get',
  'PUT /api/destinations/{name}': 'destinations.update',
  'DELETE /api/destinations/{name}': 'destinations.delete',
  'POST /api/push/{destinationName}': 'push',
  'POST /api/mcp': 'mcp.send',
} as const satisfies Record<OperationKey, string>;
