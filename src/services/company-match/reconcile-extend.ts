// Data extension and previews of the reconciliation service: firmographic columns of reconciled
// companies (ids "CC:orgNumber"), and the small HTML card OpenRefine shows on hover.
import type { CompanyRow } from '../../store/company-reads.ts';

/** Columns a reconciled company can be extended with, as OpenRefine lists them. */
export const EXTEND_PROPERTIES = [
  { id: 'employees', name: 'Employees' },
  { id: 'nace', name: 'NACE code' },
  { id: 'naceDescription', name: 'NACE description' },
  { id: 'revenue', name: 'Revenue (latest accounts)' },
  { id: 'address', name: 'Business address' },
  { id: 'postalCode', name: 'Postal code' },
  { id: 'city', name: 'City' },
  { id: 'municipality', name: 'Municipality' },
  { id: 'status', name: 'Status' },
  { id: 'orgForm', name: 'Organisation form' },
  { id: 'website', name: 'Website' },
  { id: 'foundingDate', name: 'Founding date' },
] as const;
type ExtendPropertyId = (typeof EXTEND_PROPERTIES)[number]['id'];
const KNOWN = new Set<string>(EXTEND_PROPERTIES.map((p) => p.id));
export const isExtendProperty = (id: string): id is ExtendPropertyId => KNOWN.has(id);

type CellValue = { str: string } | { int: number } | { date: string };

function statusOfRow(r: CompanyRow): string {
  if (r.is_deleted) return 'deleted';
  if (r.is_bankrupt) return 'bankrupt';
  if (r.is_being_dissolved || r.is_in_forced_dissolution) return 'dissolving';
  return r.status && r.status !== 'registered' ? r.status : 'active';
}

const str = (v: string | null | undefined): CellValue[] => (v ? [{ str: v }] : []);
const int = (v: number | null | undefined): CellValue[] => (v === null || v === undefined ? [] : [{ int: v }]);

function dateOf(v: unknown): CellValue[] {
  if (!v) return [];
  const d = v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(d) ? [{ date: `${d}T00:00:00Z` }] : [];
}

function addressOf(r: CompanyRow): string | null {
  const place = [r.business_address_postal_code, r.business_address_city].filter(Boolean).join(' ');
  const parts = [r.business_address_street, place].filter((p) => p && p.trim() !== '');
  return parts.length ? parts.join(', ') : null;
}

/** The cells of one property of one company (empty when the store has no value). */
export function cellsOf(r: CompanyRow, property: ExtendPropertyId): CellValue[] {
  switch (property) {
    case 'employees':
      return int(r.employee_count);
    case 'nace':
      return str(r.nace_code1);
    case 'naceDescription':
      return str(r.nace_description1);
    case 'revenue':
      return int(r.latest_revenue);
    case 'address':
      return str(addressOf(r));
    case 'postalCode':
      return str(r.business_address_postal_code);
    case 'city':
      return str(r.business_address_city);
    case 'municipality':
      return str(r.business_address_municipality);
    case 'status':
      return str(statusOfRow(r));
    case 'orgForm':
      return str(r.org_form_code);
    case 'website':
      return str(r.website);
    case 'foundingDate':
      return dateOf(r.founding_date ?? r.registration_date);
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A self-contained HTML card (no scripts, no external resources). */
export function previewHtml(r: CompanyRow): string {
  const rows: [string, string | null][] = [
    ['Organisation number', `${r.country} ${r.org_number}`],
    ['Form', r.org_form_description ?? r.org_form_code],
    ['Address', addressOf(r)],
    ['Industry', [r.nace_code1, r.nace_description1].filter(Boolean).join(' ') || null],
    ['Employees', r.employee_count === null ? null : String(r.employee_count)],
    ['Status', statusOfRow(r)],
  ];
  const cells = rows
    .filter(([, v]) => v)
    .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v!)}</td></tr>`)
    .join('');
  return (
    '<!doctype html><html><head><meta charset="utf-8"><title>' +
    escapeHtml(r.name) +
    '</title><style>body{font:13px sans-serif;margin:6px}th{text-align:left;padding-right:8px;color:#555}</style></head><body><strong>' +
    escapeHtml(r.name) +
    '</strong><table>' +
    cells +
    '</table></body></html>'
  );
}
