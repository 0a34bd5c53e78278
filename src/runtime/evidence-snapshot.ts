// The one consistent read of an evidence pack: a REPEATABLE READ transaction on the primary, with
// the read repositories and the use cases the pack needs built on it, so the company record,
// shareholders, owners, group, screening (and its audit row) and the stored pack all see, and
// commit with, one snapshot. On the embedded engine the transaction holds the one connection,
// so nothing here may use a handle other than `trx`.
import type { AppContext } from './context.ts';
import type { Country } from '../domain/org-number.ts';
import { buildCompanyRecord } from '../services/companies/company-record.ts';
import type { EvidenceDeps } from '../services/evidence/evidence.ts';
import { createGroupService } from '../services/ownership/groups.ts';
import { createShareholderService } from '../services/ownership/shareholders.ts';
import { createUltimateOwnerService } from '../services/ownership/ultimate-owners.ts';
import { createScreeningService } from '../services/screening/screening.ts';
import { createCompanyReadRepository } from '../store/company-reads.ts';
import { createCvrOwnerRepository } from '../store/cvr-owners.ts';
import { createEvidenceRepository, snapshotRead } from '../store/evidence.ts';
import { createGroupRepository } from '../store/groups.ts';
import { createOwnershipChainRepository } from '../store/ownership-chains.ts';
import { createSyncRunRepository } from '../store/ops/sync-runs.ts';
import { createScreeningAuditRepository } from '../store/screening-audit.ts';
import { createScreeningRepository } from '../store/screening.ts';
import { createShareholderRepository } from '../store/shareholders.ts';

const FULL = { financialsLimit: undefined, roles: true, subUnits: true, licenses: true } as const;

export function evidenceSnapshot(ctx: AppContext): EvidenceDeps['snapshot'] {
  return (fn) =>
    snapshotRead(ctx.store.db, async (trx) => {
      const reads = createCompanyReadRepository(trx);
      const shareholderRepo = createShareholderRepository(trx);
      const cvrOwners = createCvrOwnerRepository(trx);
      const chains = createOwnershipChainRepository(trx);
      const screening = createScreeningService({
        sanctions: createScreeningRepository(trx),
        companyReads: reads,
        shareholders: shareholderRepo,
        cvrOwners,
        clock: ctx.clock,
        audit: createScreeningAuditRepository(trx),
      });
      const shareholders = createShareholderService({ shareholders: shareholderRepo, cvrOwners });
      const owners = createUltimateOwnerService({ chains, shareholders: shareholderRepo });
      const groups = createGroupService({ groups: createGroupRepository(trx) });
      const syncRuns = createSyncRunRepository(trx);
      const packs = createEvidenceRepository(trx);
      return fn(
        {
          async company(country: Country, orgNumber: string) {
            const [stored] = await reads.load(country, [orgNumber], FULL);
            if (!stored) return undefined;
            const owned = stored.owners?.largestShareholder
              ? { ...stored, foreignShare: (await reads.foreignSharesOf([orgNumber])).get(orgNumber) ?? null }
              : stored;
            const record = buildCompanyRecord(owned, ctx.reference, {
              labels: true,
              signals: { now: ctx.clock.now() },
            });
            return { stored, record };
          },
          shareholders: (country, orgNumber) => shareholders.byInvestee(orgNumber, { country, includePersons: true }),
          owners: (country, orgNumber) => owners.owners(orgNumber, { country, includePersons: true }),
          group: (country, orgNumber) => groups.tree(orgNumber, country).catch(() => null),
          screen: (country, orgNumber, audit) => screening.screen(country, orgNumber, { audit }),
          syncRuns: () => syncRuns.latestBySource(),
        },
        (row) => packs.insert(row),
      );
    });
}
