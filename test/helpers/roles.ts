// A person's role row as the store takes it (RoleInput), for tests that write companies with
// their board and CEO directly: name and birth year only, as the registry's roles give them.
import type { RoleInput } from '../../src/domain/company.ts';

export function personRole(code: string, first: string, last: string, birthYear: number): RoleInput {
  return {
    groupCode: null,
    groupDescription: null,
    roleTypeCode: code,
    roleTypeDescription: code === 'DAGL' ? 'Daglig leder' : 'Styrets leder',
    personFirstName: first,
    personMiddleName: null,
    personLastName: last,
    personBirthYear: birthYear,
    entityOrgNumber: null,
    entityName: null,
    electedBy: null,
    responsibilityShare: null,
    position: 0,
  };
}
