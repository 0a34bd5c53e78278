// GET /api/licenses: alcohol and tobacco licences with filters, sorts, tier-capped pages,
// signed cursors bound to the query and the shared cursor-depth guard. Rows have the shape of
// the licenses[] of company records (licenseItem), so a licence looks the same everywhere.
import type { AppContext } from '../context.ts';
import type { LicenseFilters, LicenseSort, SortOrder } from '../store/licenses.ts';
import { licenseItem } from './company-record.ts';
import type { AuthContext } from './keys.ts';
import type { Pagination } from './pagination.ts';

export interface LicenseQuery {
  orgNumber?: string;
  registerType?: string;
  licenseTypeCode?: string;
  municipalityNo?: string;
  activeOnly?: boolean;
  sort?: LicenseSort;
  order?: SortOrder;
  limit?: number;
  cursor?: string;
}

export function createLicenseService(ctx: AppContext, pages: Pagination) {
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
      const after = pages.open('licenses', bound, q.cursor);
      if (after) await pages.guardDepth(caller);
      const limit = pages.pageSize(caller, q.limit);
      const filters: LicenseFilters = {
        orgNumber,
        registerType,
        licenseTypeCode,
        municipalityNo,
        activeAt: activeOnly ? ctx.clock.now() : undefined,
      };
      const page = await ctx.repos.licenses.list(filters, sort, order, limit + 1, after);
      const hasMore = page.rows.length > limit;
      return {
        data: page.rows.slice(0, limit).map(licenseItem),
        nextCursor: hasMore ? pages.next('licenses', bound, page.positions[limit - 1]) : null,
        hasMore,
      };
    },
  };
}

export type LicenseService = ReturnType<typeof createLicenseService>;
