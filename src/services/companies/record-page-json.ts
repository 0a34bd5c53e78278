// A list page as the response body, `{"data":[CompanyRow…],"nextCursor":…,"hasMore":…}`, from
// rows whose stored fields the database already wrote as JSON text (store/record-json.ts): only
// the derived parts (labels, ratios, provenance, owners) are built here. The change feed and the
// search list answer this way; the text is what the CompanyRow schema's serializer writes.
import type { ReferenceData } from '../../domain/reference-data.ts';
import type { CompanyReadRepository } from '../../store/company-reads.ts';
import type { RecordJsonRow } from '../../store/record-json.ts';
import { recordParts, recordRowJson } from './company-record.ts';

/** What a list row carries: the latest two years of accounts and the roles. */
export const LIST_ROW_RELATIONS = { financialsLimit: 2, roles: true } as const;

export async function recordPageJson(
  reads: Pick<CompanyReadRepository, 'ownersFor'>,
  reference: ReferenceData,
  page: { rows: RecordJsonRow[]; nextCursor: string | null; hasMore: boolean },
): Promise<string> {
  const owners = await reads.ownersFor(
    page.rows,
    page.rows.map((r) => r.has_owners),
  );
  const data = page.rows.map((r, i) =>
    recordRowJson(
      r.record_head,
      { createdMs: r.created_ms, updatedMs: r.updated_ms },
      recordParts(
        { row: r, financials: r.rel_financials ?? [], roles: [], hasRoles: r.roles_json !== null, owners: owners[i] },
        reference,
        { labels: true },
      ),
      r.roles_json ?? '[]',
    ),
  );
  return `{"data":[${data.join(',')}],"nextCursor":${JSON.stringify(page.nextCursor)},"hasMore":${page.hasMore}}`;
}
