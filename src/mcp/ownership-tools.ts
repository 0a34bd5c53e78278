// Ownership tools: get_shareholders and get_ownership_network (Aksjonærregisteret, Norway; CVR's
// owner register, Denmark): GET /api/companies/{orgNumber}/shareholders and GET /api/shareholders/by-owner.
import { Type } from 'typebox';
import { ApiError } from '../errors.ts';
import { ShareholderHoldings, ShareholderPositions } from '../contract/shareholders.ts';
import type { OwnershipCountry } from '../services/ownership/shareholders-dk.ts';
import { Country, Defaulted, OwnershipOrgNumber, runTool, success, Year, type ToolGroup } from './tool-kit.ts';

const InvesteeInput = Type.Object({
  orgNumber: OwnershipOrgNumber,
  country: Country,
  year: Year,
  includePersons: Defaulted(Type.Boolean({ default: false })),
});
const OwnerInput = Type.Object({
  shareholderOrgNumber: OwnershipOrgNumber,
  country: Country,
  year: Year,
  transitive: Defaulted(
    Type.Boolean({
      default: false,
      description: 'Also every company held through the companies it holds, with effectivePct and the paths',
    }),
  ),
  maxDepth: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 20, description: 'transitive: most layers (default 10)' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'transitive: rows per page (default 20)' }),
  ),
  cursor: Type.Optional(Type.String({ description: 'transitive: nextCursor of the previous page' })),
});

/** Shareholder registers: Norway's and Denmark's are open; Sweden's needs a paid Bolagsverket product. */
export function ownershipCountry(country: string): OwnershipCountry {
  if (country === 'NO' || country === 'DK') return country;
  const why =
    country === 'SE'
      ? "Swedish shareholder data is not available (Bolagsverket's shareholder information is a paid product)"
      : 'Finnish shareholder data is not available';
  throw new ApiError('validation_failed', {
    message: `${why}; ownership covers Norwegian AS and ASA and Danish companies (CVR)`,
    details: [{ path: 'country', message: 'must be NO or DK' }],
  });
}

export const ownershipTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'get_shareholders',
    {
      title: 'Shareholders of a company',
      description:
        'Holders of a Norwegian AS/ASA from the annual Aksjonærregisteret snapshots, with ownershipPct; with country=DK the legal owners ' +
        "in CVR's owner register, each with the band of its share (ownershipPctRange). Natural persons are left out " +
        'unless includePersons=true, and then carry only name (and, NO, birth year). Not available for SE or FI.',
      inputSchema: InvesteeInput,
      annotations: { readOnlyHint: true },
    },
    ({ orgNumber, country, year, includePersons }) =>
      runTool(log, 'get_shareholders', async () => {
        const c = ownershipCountry(country);
        return success(
          ShareholderPositions,
          await services.shareholders.byInvestee(orgNumber, { country: c, year, includePersons }),
        );
      }),
  );

  server.registerTool(
    'get_ownership_network',
    {
      title: 'Holdings of a shareholder company',
      description:
        'What a Norwegian company owns: every company in which it holds shares, with ownershipPct, from Aksjonærregisteret; with ' +
        "country=DK what a Danish company owns in CVR's owner register (ownershipPctRange). With transitive=true also every company " +
        'held through the companies it holds, each with effectivePct (summed over the paths), controls and its paths, paged (limit, cursor). Not available for SE or FI.',
      inputSchema: OwnerInput,
      annotations: { readOnlyHint: true },
    },
    ({ shareholderOrgNumber, country, ...opts }) =>
      runTool(log, 'get_ownership_network', async () => {
        const c = ownershipCountry(country);
        return success(
          ShareholderHoldings,
          await services.transitiveHoldings.byOwner(caller, { shareholderOrgNumber, country: c, ...opts }),
        );
      }),
  );
};
