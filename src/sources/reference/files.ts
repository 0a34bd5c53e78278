// Reads the reference lists committed under reference/ (SSB municipalities and counties,
// NACE SN2007 and SN2025, brreg organisation forms, Bring postal codes).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { fromRoot } from '../../project-root.ts';

export const REFERENCE_DIR = fromRoot('reference');

interface ReferenceFile<T> {
  name: string;
  hash: string;
  rows: T[];
}

function read<T>(dir: string, name: string, delimiter: string, map: (r: Record<string, string>) => T): ReferenceFile<T> {
  const text = readFileSync(path.join(dir, name), 'utf8');
  const records = parse(text, { columns: true, delimiter, bom: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  return { name, hash: createHash('sha256').update(text).digest('hex'), rows: records.map(map) };
}

const orNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);

export function readCounties(dir = REFERENCE_DIR) {
  return read(dir, 'fylker-2024.csv', ',', (r) => ({ code: r.fylkesnummer, name: r.fylkesnavn }));
}

export function readMunicipalities(dir = REFERENCE_DIR) {
  return read(dir, 'kommuner-2024.csv', ',', (r) => ({ code: r.kommunenummer, name: r.kommunenavn, county_code: r.fylkesnummer }));
}

export function readNace(version: 'SN2007' | 'SN2025', dir = REFERENCE_DIR) {
  const file = version === 'SN2007' ? 'naeringskoder-sn2007.csv' : 'naeringskoder-sn2025.csv';
  return read(dir, file, ',', (r) => ({
    version,
    code: r.kode,
    level: Number(r.nivaa),
    parent: orNull(r.forelder),
    section: orNull(r.seksjon),
    name: r.navn,
    short_name: orNull(r.kortnavn),
  }));
}

export function readOrgForms(dir = REFERENCE_DIR) {
  return read(dir, 'organisasjonsformer.csv', ',', (r) => ({
    country: 'NO',
    code: r.kode,
    description: r.beskrivelse,
    applies_to: orNull(r.gjelder),
  }));
}

/** PRH (FI) and Bolagsverket (SE) organisation forms: `kode,beskrivelse`. */
export function readNordicOrgForms(country: 'FI' | 'SE', dir = REFERENCE_DIR) {
  return read(dir, `org-forms-${country.toLowerCase()}.csv`, ',', (r) => ({ country, code: r.kode, description: r.beskrivelse, applies_to: null }));
}

export function readPostalCodes(dir = REFERENCE_DIR) {
  return read(dir, 'postnummer-bring-2024-01.csv', ';', (r) => ({
    postal_code: r.postnummer,
    place: r.poststed,
    municipality_code: r.kommunenummer,
    category: orNull(r.kategori),
  }));
}
