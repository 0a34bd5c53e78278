// An uncached lookup's body as JSON text, from the one-statement row of store/company-lookup-row.ts:
// the stored fields and the roles come as the database wrote them; only the derived parts
// (signals, accounts with ratios, labels, provenance, procurement) are built here. The text is byte for byte
// what the CompanyLookup schema's serializer writes for the typed record (buildCompanyRecord), the
// way recordRowJson is for list rows: required fields in the schema's order, then the optional
// ones present (employeeCountRange, owners, labels, procurement).
import type { ReferenceData } from '../../domain/reference-data.ts';
import type { CompanyLookupRow } from '../../store/company-lookup-row.ts';
import type { ForeignShare, OwnerBand } from '../../store/ownership-signals.ts';
import type { OwnerSummary } from '../../store/shareholders.ts';
import { companyProcurementOf } from '../../store/procurement.ts';
import { procurementFieldsOf } from '../registers/procurement.ts';
import { licenseItem, recordParts, subUnit } from './company-record.ts';
import { recordSignals } from './record-signals.ts';

/** What the lookup reads beside its row: the owner summary and the owner figures its signals use. */
export interface LookupOwnership {
  owners?: OwnerSummary;
  foreignShare?: ForeignShare | null;
  danishLargestOwner?: OwnerBand | null;
}

/** `{"a":1,"b":2}` -> `,"a":1,"b":2`; nothing for an empty object. */
const members = (o: object) => {
  const text = JSON.stringify(o).slice(1, -1);
  return text ? `,${text}` : '';
};

export function lookupRecordJson(
  row: CompanyLookupRow,
  ownership: LookupOwnership,
  reference: ReferenceData,
  now: Date,
): string {
  const financials = row.rel_financials ?? [];
  const computed = recordSignals({ row, financials, ...ownership }, { now });
  const parts = recordParts(
    { row, financials, roles: [], hasRoles: row.roles_json !== null, owners: ownership.owners },
    reference,
    { labels: true },
    { signals: computed.source },
  );
  const subUnits = (row.rel_sub_units ?? []).map(subUnit);
  const licenses = (row.rel_licenses ?? []).map(licenseItem);
  const procurement =
    row.active === null || row.awarded === null
      ? {}
      : procurementFieldsOf(
          companyProcurementOf({ active: row.active, awarded: row.awarded, tender: row.tender, award: row.award }),
        );
  const times = `"createdAt":"${new Date(row.created_ms).toISOString()}","updatedAt":"${new Date(row.updated_ms).toISOString()}"`;
  return (
    `${row.record_head},${times}${members(parts.derived)},"signals":${JSON.stringify(computed.signals)}` +
    `,"financials":${JSON.stringify(parts.financials)},"roles":${row.roles_json ?? '[]'}` +
    `,"subUnits":${JSON.stringify(subUnits)},"licenses":${JSON.stringify(licenses)},"_sources":${JSON.stringify(parts.sources)}` +
    `${members(parts.optional)}${members(parts.owners)}${members(parts.labels)}${members(procurement)}}`
  );
}
