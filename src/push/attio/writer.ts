// Record values -> Attio attribute values: the attributes a mapping needs, the values to write
// for one company given what the record already holds (fillIfEmpty), and the values read back.
// Value shapes from docs.attio.com/docs/attribute-types: text, number, date and checkbox take the
// bare value; domains a list of domains; primary_location one location object.
import { CRM_FIELDS, isEmptyValue, type CrmField, type CrmValue, type FieldMapping } from '../crm-fields.ts';
import { ATTIO_DOMAINS, ATTIO_LOCATION, ATTIO_STATUS_ATTRIBUTE } from './config.ts';
import type { AttioAttribute, AttioRecord, AttioValues } from './client.ts';

const TYPES = { text: 'text', number: 'number', date: 'date', boolean: 'checkbox' } as const;

export function missingAttributes(mappings: Map<CrmField, FieldMapping>, existing: Set<string>): AttioAttribute[] {
  const out = new Map<string, AttioAttribute>();
  for (const [field, m] of mappings) {
    if (existing.has(m.property) || m.property === ATTIO_DOMAINS || m.property === ATTIO_LOCATION) continue;
    out.set(m.property, {
      title: m.property.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
      api_slug: m.property,
      type: TYPES[CRM_FIELDS[field]],
      description: 'Written by Nordic Company Data from the national business register',
      is_unique: field === 'orgNumber',
    });
  }
  if (!existing.has(ATTIO_STATUS_ATTRIBUTE))
    out.set(ATTIO_STATUS_ATTRIBUTE, {
      title: 'Register lookup status',
      api_slug: ATTIO_STATUS_ATTRIBUTE,
      type: 'text',
      description: 'Written by Nordic Company Data',
      is_unique: false,
    });
  return [...out.values()];
}

/** The first value of an attribute on a record, as a comparable string (undefined when empty). */
export function attioCurrent(record: AttioRecord | undefined, slug: string): string | undefined {
  const first = record?.values?.[slug]?.[0];
  if (!first) return undefined;
  if (slug === ATTIO_DOMAINS) return typeof first.domain === 'string' ? first.domain : undefined;
  if (slug === ATTIO_LOCATION) return typeof first.line_1 === 'string' ? first.line_1 : undefined;
  const v = first.value;
  return isEmptyValue(v) ? undefined : String(v);
}

function location(values: Record<CrmField, CrmValue>) {
  return [
    {
      line_1: values.businessAddressStreet,
      line_2: null,
      line_3: null,
      line_4: null,
      locality: values.businessAddressCity,
      region: null,
      postcode: values.businessAddressPostalCode,
      country_code: values.businessAddressCountryCode ?? values.country,
      latitude: null,
      longitude: null,
    },
  ];
}

/** The values to write (see hubspotProperties for the rules). */
export function attioValues(
  values: Record<CrmField, CrmValue>,
  mappings: Map<CrmField, FieldMapping>,
  current?: AttioRecord,
): AttioValues {
  const out: AttioValues = {};
  for (const [field, m] of mappings) {
    const v = values[field];
    if (v === null) continue;
    if (m.rule === 'fillIfEmpty' && current && attioCurrent(current, m.property) !== undefined) continue;
    if (m.property === ATTIO_DOMAINS) out[m.property] = [String(v)];
    else if (m.property === ATTIO_LOCATION) out[m.property] = location(values);
    else out[m.property] = v;
  }
  return out;
}

/** The written values as attioCurrent reads them, to tell whether a write would change anything. */
export function attioComparable(slug: string, v: unknown): string | undefined {
  if (slug === ATTIO_DOMAINS) return Array.isArray(v) ? String(v[0]) : undefined;
  if (slug === ATTIO_LOCATION)
    return Array.isArray(v) ? String((v[0] as { line_1?: unknown }).line_1 ?? '') || undefined : undefined;
  return isEmptyValue(v) ? undefined : String(v);
}
