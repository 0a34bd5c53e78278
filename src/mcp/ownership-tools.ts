// Ownership tools: get_shareholders and get_ownership_network (Aksjonærregisteret, Norway):
// GET /api/companies/{orgNumber}/shareholders and GET /api/shareholders/by-owner.
import { Type } from 'typebox';
import * as z from 'zod';
import { ApiError } from '../errors.ts';
import { ShareholderHolding, ShareholderPosition } from '../contract/shareholders.ts';
import { Country, NorwegianOrgNumber, runTool, success, Year, type ToolGroup } from './tool-kit.ts';

const Positions = Type.Object({ data: Type.Array(ShareholderPosition), availableYears: Type.Array(Type.Integer()) });
const Holdings = Type.Object({ shareholderOrgNumber: Type.String(), data: Type.Array(ShareholderHolding) });

/** Shareholder registers: Norway's is open; Sweden's needs a paid Bolagsverket product. */
function norwayOnly(country: string) {
  if (country === 'NO') return;
  const why =
    country === 'SE'
      ? "Swedish shareholder data is not available (Bolagsverket's shareholder information is a paid product)"
      : 'Finnish shareholder data is not available';
  throw new ApiError('validation_failed', {
    message: `${why}; shareholders cover Norwegian AS and ASA`,
    details: [{ path: 'country', message: 'must be NO' }],
  });
}

export const ownershipTools: ToolGroup = (server, { services, log }) => {
  server.registerTool(
    'get_shareholders',
    {
      title: 'Shareholders of a company',
      description:
        'Holders of a Norwegian AS/ASA from the annual Aksjonærregisteret snapshots, with ownershipPct. Natural persons are left out ' +
        'unless includePersons=true, and then carry only name and birth year. Not available for SE or FI.',
      inputSchema: {
        orgNumber: NorwegianOrgNumber,
        country: Country,
        year: Year,
        includePersons: z.boolean().default(false),
      },
      annotations: { readOnlyHint: true },
    },
    ({ orgNumber, country, year, includePersons }) =>
      runTool(log, 'get_shareholders', async () => {
        norwayOnly(country);
        return success(Positions, await services.shareholders.byInvestee(orgNumber, { year, includePersons }));
      }),
  );

  server.registerTool(
    'get_ownership_network',
    {
      title: 'Holdings of a shareholder company',
      description:
        'What a Norwegian company owns: every company in which it holds shares, with ownershipPct, from Aksjonærregisteret. Not available for SE or FI.',
      inputSchema: { shareholderOrgNumber: NorwegianOrgNumber, country: Country, year: Year },
      annotations: { readOnlyHint: true },
    },
    ({ shareholderOrgNumber, country, year }) =>
      runTool(log, 'get_ownership_network', async () => {
        norwayOnly(country);
        return success(Holdings, await services.shareholders.byOwner(shareholderOrgNumber, { year }));
      }),
  );
};
