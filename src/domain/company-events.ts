// Typed company events: what changed between the stored and the incoming version of
// a company, as one event per category with before/after of the changed fields only. The rules
// live here: which core columns are monitored and how a change is typed (the store turns them
// into the SQL that makes core events inside the write, store/core-events-sql.ts), and the pure
// diff of roles. No person's national id or birth date ever enters an event (roles are named by
// holder name only, never birth year).

export const EVENT_CATEGORIES = [
  'status',
  'name',
  'address',
  'industry',
  'roles',
  'ownership',
  'accounts',
  'subUnits',
  'licence',
  'inspection',
  'screening',
  'procurement',
  'deleted',
] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

export type FieldValues = Record<string, string | number | boolean | string[] | null>;

/** An event before it has a seq: what the store appends in the writing transaction. */
export interface NewEvent {
  country: string;
  orgNumber: string;
  category: EventCategory;
  type: string;
  fieldsChanged: string[];
  before: FieldValues;
  after: FieldValues;
  source: string;
}

/** Monitored core fields: API field name, store column, category. Others raise no event. */
const MONITORED_CORE: [field: string, column: string, category: EventCategory][] = [
  ['name', 'name', 'name'],
  ['isBankrupt', 'is_bankrupt', 'status'],
  ['isBeingDissolved', 'is_being_dissolved', 'status'],
  ['isInForcedDissolution', 'is_in_forced_dissolution', 'status'],
  ['isDeleted', 'is_deleted', 'status'],
  ['deletedDate', 'deleted_date', 'status'],
  ['status', 'status', 'status'],
  ...(['street', 'postal_code', 'city', 'municipality', 'muni_no', 'country_code'] as const).flatMap(
    (part): [string, string, EventCategory][] => {
      const field =
        part === 'muni_no' ? 'municipalityNumber' : part.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
      return [
        [`businessAddress.${field}`, `business_address_${part}`, 'address'],
        [`postalAddress.${field}`, `postal_address_${part}`, 'address'],
      ];
    },
  ),
  ['naceCode1', 'nace_code1', 'industry'],
  ['naceCode2', 'nace_code2', 'industry'],
  ['naceCode3', 'nace_code3', 'industry'],
  ['lastSubmittedAccountsYear', 'last_submitted_accounts_year', 'accounts'],
];

/**
 * How a change in the `status` category is typed: the first rule that holds wins. A flag column
 * rose when it was not true and is true now, fell when it was true and is not. No rule holds:
 * STATUS_CHANGED.
 */
export const STATUS_TYPES: { type: string; rose?: string[]; fell?: string[] }[] = [
  { type: 'deregistered', rose: ['is_deleted'] },
  { type: 'bankrupt', rose: ['is_bankrupt'] },
  { type: 'dissolved', rose: ['is_being_dissolved', 'is_in_forced_dissolution'] },
  { type: 'reinstated', fell: ['is_deleted', 'is_bankrupt', 'is_being_dissolved', 'is_in_forced_dissolution'] },
];
export const STATUS_CHANGED = 'status_changed';

/** The event type of a change in each other category of MONITORED_CORE. */
export const CORE_EVENT_TYPE: Partial<Record<EventCategory, string>> = {
  name: 'name_changed',
  address: 'address_changed',
  industry: 'industry_changed',
  accounts: 'accounts_filed',
};

/**
 * MONITORED_CORE by category, in order. A changed core raises one event per category with a
 * changed column: `fieldsChanged` in this order, `before` and `after` holding those fields only,
 * compared as the store holds them (text, booleans, dates). The store makes them in the write's
 * own statement (store/core-events-sql.ts).
 */
export const CORE_BY_CATEGORY = [...new Set(MONITORED_CORE.map(([, , category]) => category))].map((category) => ({
  category,
  columns: MONITORED_CORE.filter(([, , c]) => c === category).map(([field, column]) => ({ field, column })),
}));

/** A role as events show it: the holder's name (or entity name and number), nothing else. */
export interface RoleHolder {
  roleTypeCode: string;
  personFirstName: string | null;
  personMiddleName: string | null;
  personLastName: string | null;
  entityOrgNumber: string | null;
  entityName: string | null;
}

const ROLE_FIELD: Record<string, string> = {
  DAGL: 'ceo',
  LEDE: 'chair',
  NEST: 'deputyChair',
  MEDL: 'boardMembers',
  VARA: 'deputyBoardMembers',
  REVI: 'auditor',
  REGN: 'accountant',
  KONT: 'contactPerson',
  DTPR: 'generalPartners',
  DTSO: 'generalPartners',
  INNH: 'owner',
};
const ROLE_TYPE: Record<string, string> = { ceo: 'ceo_changed', chair: 'chair_changed', auditor: 'auditor_changed' };
const BOARD = new Set(['chair', 'deputyChair', 'boardMembers', 'deputyBoardMembers']);

function holderName(r: RoleHolder): string {
  if (r.entityName || r.entityOrgNumber)
    return [r.entityName, r.entityOrgNumber && `(${r.entityOrgNumber})`].filter(Boolean).join(' ');
  return [r.personFirstName, r.personMiddleName, r.personLastName].filter(Boolean).join(' ');
}

function holdersByField(roles: RoleHolder[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const r of roles) {
    const field = ROLE_FIELD[r.roleTypeCode] ?? `role.${r.roleTypeCode}`;
    m.set(field, [...(m.get(field) ?? []), holderName(r)]);
  }
  for (const v of m.values()) v.sort();
  return m;
}

/** One `roles` event for a company whose roles changed; none when the holders are the same. */
export function roleEvents(
  key: { country: string; orgNumber: string; source: string },
  stored: RoleHolder[],
  incoming: RoleHolder[],
): NewEvent[] {
  const b = holdersByField(stored);
  const a = holdersByField(incoming);
  const fields = [...new Set([...b.keys(), ...a.keys()])]
    .filter((f) => JSON.stringify(b.get(f) ?? []) !== JSON.stringify(a.get(f) ?? []))
    .sort();
  if (!fields.length) return [];
  const one = (f: string, m: Map<string, string[]>) =>
    (m.get(f) ?? []).length <= 1 && !f.endsWith('s') ? (m.get(f)?.[0] ?? null) : (m.get(f) ?? []);
  const type =
    fields.length === 1 && ROLE_TYPE[fields[0]]
      ? ROLE_TYPE[fields[0]]
      : fields.every((f) => BOARD.has(f))
        ? 'board_changed'
        : 'roles_changed';
  return [
    {
      ...key,
      category: 'roles',
      type,
      fieldsChanged: fields,
      before: Object.fromEntries(fields.map((f) => [f, one(f, b)])),
      after: Object.fromEntries(fields.map((f) => [f, one(f, a)])),
    },
  ];
}
