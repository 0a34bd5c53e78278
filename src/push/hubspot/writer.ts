// Record values -> HubSpot company properties: the property definitions a mapping needs, and the
// properties to write for one company given what the CRM already holds (fillIfEmpty).
import { CRM_FIELDS, isEmptyValue, type CrmField, type CrmValue, type FieldMapping } from '../crm-fields.ts';
import { HUBSPOT_STATUS_PROPERTY } from './config.ts';
import type { HubspotProperty } from './client.ts';

const LABELS: Partial<Record<string, string>> = {
  ncd_org_number: 'Organisation number',
  ncd_enrichment_status: 'Register lookup status',
  ncd_company_status: 'Register status',
  ncd_marketing_protected: 'Declined advertising (register)',
};

function definition(property: string, kind: (typeof CRM_FIELDS)[CrmField], unique: boolean): HubspotProperty {
  const base = {
    name: property,
    label:
      LABELS[property] ??
      property
        .replace(/^ncd_/, '')
        .replace(/_/g, ' ')
        .replace(/^./, (c) => c.toUpperCase()),
    groupName: 'companyinformation',
    description: 'Written by Nordic Company Data from the national business register',
  };
  if (kind === 'number') return { ...base, type: 'number', fieldType: 'number' };
  if (kind === 'date') return { ...base, type: 'date', fieldType: 'date' };
  if (kind === 'boolean')
    return {
      ...base,
      type: 'bool',
      fieldType: 'booleancheckbox',
      options: [
        { label: 'Yes', value: 'true' },
        { label: 'No', value: 'false' },
      ],
    };
  return { ...base, type: 'string', fieldType: 'text', ...(unique ? { hasUniqueValue: true } : {}) };
}

/** Definitions of the mapped properties (and the status property) the portal does not have yet. */
export function missingProperties(mappings: Map<CrmField, FieldMapping>, existing: Set<string>): HubspotProperty[] {
  const out = new Map<string, HubspotProperty>();
  for (const [field, m] of mappings)
    if (!existing.has(m.property))
      out.set(m.property, definition(m.property, CRM_FIELDS[field], field === 'orgNumber'));
  if (!existing.has(HUBSPOT_STATUS_PROPERTY))
    out.set(HUBSPOT_STATUS_PROPERTY, definition(HUBSPOT_STATUS_PROPERTY, 'text', false));
  return [...out.values()];
}

/** HubSpot takes every property value as a string; dates as YYYY-MM-DD. */
export function hubspotValue(v: CrmValue): string | undefined {
  if (v === null) return undefined;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return String(v);
}

/**
 * The properties to write: every mapped field with a value, except a fillIfEmpty field whose
 * property already holds a value in the CRM. A field without a value is left as it is in the CRM
 * (a register gap never erases what a person typed).
 */
export function hubspotProperties(
  values: Record<CrmField, CrmValue>,
  mappings: Map<CrmField, FieldMapping>,
  current?: Record<string, string | null>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, m] of mappings) {
    const v = hubspotValue(values[field]);
    if (v === undefined) continue;
    if (m.rule === 'fillIfEmpty' && current && !isEmptyValue(current[m.property])) continue;
    out[m.property] = v;
  }
  return out;
}
