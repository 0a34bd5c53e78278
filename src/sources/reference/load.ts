// Loads the committed reference lists into the store at start-up. A file whose content hash
// is already recorded is skipped, so a normal restart costs one small query per file.
import type { ReferenceRepository } from '../../store/reference.ts';
import {
  readCounties,
  readMunicipalities,
  readNace,
  readNordicOrgForms,
  readOrgForms,
  readPostalCodes,
  REFERENCE_DIR,
} from './files.ts';

export async function loadReferenceData(repo: ReferenceRepository, dir = REFERENCE_DIR): Promise<string[]> {
  const loaded: string[] = [];
  const steps = [
    { file: readCounties(dir), table: 'ref_counties' as const },
    { file: readMunicipalities(dir), table: 'ref_municipalities' as const },
    { file: readNace('SN2007', dir), table: 'ref_nace' as const, scope: { column: 'version', value: 'SN2007' } },
    { file: readNace('SN2025', dir), table: 'ref_nace' as const, scope: { column: 'version', value: 'SN2025' } },
    { file: readOrgForms(dir), table: 'ref_org_forms' as const, scope: { column: 'country', value: 'NO' } },
    { file: readNordicOrgForms('FI', dir), table: 'ref_org_forms' as const, scope: { column: 'country', value: 'FI' } },
    { file: readNordicOrgForms('SE', dir), table: 'ref_org_forms' as const, scope: { column: 'country', value: 'SE' } },
    { file: readPostalCodes(dir), table: 'ref_postal_codes' as const },
  ];
  for (const step of steps) {
    if ((await repo.fileHash(step.file.name)) === step.file.hash) continue;
    await repo.replaceFile(step.table, step.file, step.scope);
    loaded.push(step.file.name);
  }
  return loaded;
}
