// Ownership-chain tools: get_ultimate_owners and get_ownership_changes, mirroring
// GET /api/companies/{orgNumber}/owners and GET /api/companies/{orgNumber}/ownership-changes.
import { Type } from 'typebox';
import { OwnershipChanges, UltimateOwners } from '../contract/owners.ts';
import { Country, Defaulted, OwnershipOrgNumber, runTool, success, Year, type ToolGroup } from './tool-kit.ts';
import { ownershipCountry } from './ownership-tools.ts';

const OwnersInput = Type.Object({
  orgNumber: OwnershipOrgNumber,
  country: Country,
  year: Year,
  threshold: Defaulted(
    Type.Number({ minimum: 0, maximum: 100, default: 25, description: 'Smallest effective share (percent) listed' }),
  ),
  maxDepth: Defaulted(
    Type.Integer({ minimum: 1, maximum: 20, default: 10, description: 'Most ownership layers walked' }),
  ),
  includePersons: Defaulted(Type.Boolean({ default: false })),
});
const ChangesInput = Type.Object({
  orgNumber: OwnershipOrgNumber,
  country: Country,
  fromYear: Year,
  toYear: Year,
  includePersons: Defaulted(Type.Boolean({ default: false })),
});

export const ownershipChainTools: ToolGroup = (server, { services, log }) => {
  server.registerTool(
    'get_ultimate_owners',
    {
      title: 'Ultimate-owner candidates of a company',
      description:
        'Walks the shareholder registers up from a Norwegian company (Aksjonærregisteret) or, with country=DK, a Danish one (CVR owner bands) ' +
        'and returns the ultimate-owner candidates with effectivePct (effectivePctRange for DK), controls, every path and why it stopped, the untraced share and ' +
        'complex-structure flags (EU AMLA draft criteria). Derived from the shareholder registers, not the register of beneficial owners. ' +
        'Natural persons only with includePersons=true, by name and birth year.',
      inputSchema: OwnersInput,
      annotations: { readOnlyHint: true },
    },
    ({ orgNumber, country, ...opts }) =>
      runTool(log, 'get_ultimate_owners', async () =>
        success(
          UltimateOwners,
          await services.ultimateOwners.owners(orgNumber, { country: ownershipCountry(country), ...opts }),
        ),
      ),
  );

  server.registerTool(
    'get_ownership_changes',
    {
      title: 'Ownership changes between register years',
      description:
        'How the direct owners of a Norwegian company changed between consecutive years of Aksjonærregisteret: owners that entered, left, ' +
        'rose or fell by at least 5 percentage points, and a change of the largest owner. Natural persons only with includePersons=true.',
      inputSchema: ChangesInput,
      annotations: { readOnlyHint: true },
    },
    ({ orgNumber, country, ...opts }) =>
      runTool(log, 'get_ownership_changes', async () =>
        success(
          OwnershipChanges,
          await services.ownershipChanges.changes(orgNumber, { country: ownershipCountry(country), ...opts }),
        ),
      ),
  );
};
