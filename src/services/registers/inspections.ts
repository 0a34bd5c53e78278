// GET /api/inspections: Mattilsynet inspection visits with filters, sorts, tier-capped pages,
// signed cursors bound to the query and the shared cursor-depth guard.
import type { ReferenceData } from '../../domain/reference-data.ts';
import { invalid } from '../../errors.ts';
import type { InspectionFilters, InspectionRepository, InspectionRow } from '../../store/inspections.ts';
import type { InspectionsQuery } from '../../contract/inspections.ts';
import type { AuthContext } from '../access/key-auth.ts';
import type { Pagination } from '../support/pagination.ts';

export type InspectionQuery = InspectionsQuery;

interface StoredTheme {
  number: number;
  nameNo: string | null;
  nameNn: string | null;
  grade: number | null;
  applicable: boolean;
  assessed: boolean;
}

/** True for a real calendar date YYYY-MM-DD (the schema checks the shape, not 2024-02-30). */
export function isRealDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function validate(q: InspectionQuery): InspectionFilters {
  for (const key of ['fromDate', 'toDate'] as const) {
    const v = q[key];
    if (v !== undefined && !isRealDate(v)) throw invalid(`query.${key}`, 'is not a real date (YYYY-MM-DD)');
  }
  if (q.fromDate !== undefined && q.toDate !== undefined && q.fromDate > q.toDate)
    throw invalid('query.fromDate', 'must not be after toDate');
  if (q.minRating !== undefined && q.maxRating !== undefined && q.minRating > q.maxRating)
    throw invalid('query.minRating', 'must not exceed maxRating');
  const { orgNumber, minRating, maxRating, postnr, fromDate, toDate } = q;
  return { orgNumber, minRating, maxRating, postnr, fromDate, toDate };
}

export interface InspectionServiceDeps {
  inspections: InspectionRepository;
  reference: ReferenceData;
  pagination: Pagination;
}

export function createInspectionService(deps: InspectionServiceDeps) {
  function item(r: InspectionRow) {
    return {
      id: String(r.id),
      orgNumber: r.org_number,
      name: r.name,
      postnr: r.postnr,
      totalRating: r.total_rating,
      // A visit has a day, not a time: served as midnight UTC of that day.
      date: `${r.date}T00:00:00.000Z`,
      office: r.office,
      municipality: deps.reference.municipality(r.municipality_no)?.name ?? null,
      municipalityNo: r.municipality_no,
      upstreamId: r.upstream_id,
      venueId: r.venue_id,
      address: r.address,
      poststed: r.poststed,
      inspectionType: r.inspection_type,
      themes: (r.themes as StoredTheme[]).map((t) => ({
        number: t.number,
        nameNo: t.nameNo,
        nameNn: t.nameNn,
        grade: t.grade,
        applicable: t.applicable,
        assessed: t.assessed,
      })),
    };
  }

  return {
    async list(caller: AuthContext, q: InspectionQuery) {
      const filters = validate(q);
      const sort = q.sort ?? 'date';
      const order = q.order ?? 'desc';
      const page = await deps.pagination.page(
        caller,
        {
          scope: 'inspections',
          bound: { ...filters, sort, order },
          cursor: q.cursor,
          limit: q.limit,
          depthGuard: true,
        },
        (limit, after) => deps.inspections.list(filters, sort, order, limit, after),
      );
      return { data: page.rows.map(item), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },
  };
}

export type InspectionService = ReturnType<typeof createInspectionService>;
