// The subjects screened for one company: its name, its active roles (not the auditor or the
// accountant) and the holders of its latest shareholder year, one per distinct person or
// organisation.
import { normaliseName } from '../../domain/screening/index.ts';
import type { NameKind } from '../../domain/screening/types.ts';
import type { StoredCompany } from '../../store/company-reads.ts';
import type { PositionRow } from '../../store/shareholders.ts';

type SubjectKind = 'company' | 'person' | 'organisation';

interface ScreenedSubject {
  id: string;
  kind: SubjectKind;
  /** The first reason the subject is screened: 'company', 'role:DAGL', 'shareholder'. */
  role: string;
  /** Every reason (a CEO who is also a shareholder: ['role:DAGL', 'shareholder']). */
  roles: string[];
  name: string;
  /** Persons only, when known; never a full birth date. */
  birthYear?: number;
}

/** A subject with what the matcher needs (not part of the response). */
interface Subject extends ScreenedSubject {
  nameKind: NameKind;
  countries: string[];
  key: string;
}

/**
 * Roles held by service providers, not by people who run or control the company: the auditor
 * and the accountant are not screened.
 */
const SERVICE_ROLES = new Set(['REVI', 'REGN']);

const iso2 = (c: string | null | undefined) => (c && /^[A-Za-z]{2}$/.test(c) ? [c.toLowerCase()] : []);
const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** The subjects of a company, one per distinct person or organisation. */
export function subjectsOf(company: StoredCompany, holders: PositionRow[]): Subject[] {
  const out: Subject[] = [];
  const byKey = new Map<string, Subject>();
  let persons = 0;
  let organisations = 0;
  const add = (s: Omit<Subject, 'id' | 'roles'>) => {
    const seen = byKey.get(s.key);
    if (seen) {
      if (!seen.roles.includes(s.role)) seen.roles.push(s.role);
      return;
    }
    const id = s.kind === 'company' ? 'company' : s.kind === 'person' ? `p${++persons}` : `o${++organisations}`;
    const subject: Subject = { ...s, id, roles: [s.role] };
    byKey.set(s.key, subject);
    out.push(subject);
  };
  const { row } = company;
  add({
    kind: 'company',
    nameKind: 'organisation',
    role: 'company',
    name: clean(row.name),
    countries: iso2(row.country),
    key: `org:${row.org_number}`,
  });
  for (const r of company.roles) {
    if (SERVICE_ROLES.has(r.role_type_code)) continue;
    const role = `role:${r.role_type_code}`;
    const person = [r.person_first_name, r.person_middle_name, r.person_last_name].map(clean).filter(Boolean).join(' ');
    if (person) {
      const birthYear = r.person_birth_year ?? undefined;
      add({
        kind: 'person',
        nameKind: 'person',
        role,
        name: person,
        birthYear,
        countries: [],
        key: `person:${person.toLowerCase()}:${birthYear ?? ''}`,
      });
    } else if (clean(r.entity_name)) {
      const name = clean(r.entity_name);
      add({
        kind: 'organisation',
        nameKind: 'organisation',
        role,
        name,
        countries: [],
        key: r.entity_org_number ? `org:${r.entity_org_number}` : `orgname:${name.toLowerCase()}`,
      });
    }
  }
  for (const h of holders) {
    const name = clean(h.holderName);
    if (!name) continue;
    if (h.holderType === 'person') {
      const birthYear = h.holderBirthYear ?? undefined;
      add({
        kind: 'person',
        nameKind: 'person',
        role: 'shareholder',
        name,
        birthYear,
        countries: [],
        key: `person:${name.toLowerCase()}:${birthYear ?? ''}`,
      });
    } else if (h.holderType === 'company' || normaliseName(name, 'organisation').legalForms.length > 0) {
      const key = h.holderOrgNumber ? `org:${h.holderOrgNumber}` : `orgname:${name.toLowerCase()}`;
      add({
        kind: 'organisation',
        nameKind: 'organisation',
        role: 'shareholder',
        name,
        countries: iso2(h.countryCode),
        key,
      });
    } else {
      // A foreign holder without a legal form may be a person or a company: screen it as both.
      add({
        kind: 'organisation',
        nameKind: 'organisation',
        role: 'shareholder',
        name,
        countries: iso2(h.countryCode),
        key: `orgname:${name.toLowerCase()}`,
      });
      add({
        kind: 'person',
        nameKind: 'person',
        role: 'shareholder',
        name,
        countries: [],
        key: `person:${name.toLowerCase()}:`,
      });
    }
  }
  return out;
}
