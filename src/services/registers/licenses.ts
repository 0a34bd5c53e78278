// GET /api/licenses: alcohol and tobacco licences with filters, sorts, tier-capped pages,
// signed cursors bound to the query and the shared cursor-depth guard. Rows have the shape of
// the licenses[] of company records (licenseItem), so a licence looks the same everywhere.
import type { Clock } from '../../domain/clock.ts';
import type { LicenseFilters, LicenseRepository } from '../../store/licenses.ts';
import { licenseItem } from '../companies/company-record.ts';
import type { LicensesQuery } from '../../contract/licenses.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { Pagination } from '../support/pagination.ts';

export type LicenseQuery = LicensesQuery;

export interface LicenseServiceDeps {
  licenses: LicenseRepository;
  clock: Clock;
  pagination: Pagination;
}

export function createLicenseService(deps: LicenseServiceDeps) {
  return {
    async list(caller: AuthContext, q: LicenseQuery) {
      const { orgNumber, registerType, licenseTypeCode, municipalityNo, activeOnly } = q;
      const sort = q.sort ?? 'validFrom';
      const order = q.order ?? 'desc';
      // The cursor is bound to activeOnly, not to the instant: "now" moves between pages.
      const bound = {
        orgNumber,
        registerType,
        licenseTypeCode,
        municipalityNo,
        activeOnly: activeOnly || undefined,
        sort,
        order,
      };
      const page = await deps.pagination.page(
        caller,
        { scope: 'licenses', bound, cursor: q.cursor, limit: q.limit, depthGuard: true },
        (limit, after) => {
          const filters: LicenseFilters = {
            orgNumber,
            registerType,
            licenseTypeCode,
            municipalityNo,
            activeAt: activeOnly ? deps.clock.now() : undefined,
          };
          return deps.licenses.list(filters, sort, order, limit, after);
        },
      );
      return { data: page.rows.map(licenseItem), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },
  };
}

export type LicenseService = ReturnType<typeof createLicenseService>;
