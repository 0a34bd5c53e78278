import { describe, expect, it } from 'vitest';
import { detectSanctionsFormat } from '../../../src/sources/sanctions/detect.ts';
import { fixture } from './helpers.ts';

const head = (file: string, bytes = 2048) => fixture(file).subarray(0, bytes).toString('utf8');

describe('detectSanctionsFormat', () => {
  it('recognises every sample from its first bytes alone', () => {
    expect(detectSanctionsFormat(head('opensanctions-entities.ftm.sample.json'))).toBe('ftm');
    expect(detectSanctionsFormat(head('opensanctions-entities.delta.sample.json'))).toBe('ftm-delta');
    expect(detectSanctionsFormat(head('opensanctions-targets.simple.header.csv'))).toBe('targets-csv');
    expect(detectSanctionsFormat(head('targets.simple.old-header.csv'))).toBe('targets-csv');
    expect(detectSanctionsFormat(head('eu-fsf-export-excerpt.xml'))).toBe('eu-fsf-xml');
    expect(detectSanctionsFormat(head('un-consolidated-list-excerpt.xml'))).toBe('un-xml');
  });

  it('copes with a BOM and a first line cut short, falling back on the file name', () => {
    expect(detectSanctionsFormat('\uFEFF{"op":"MOD","ent', 'x')).toBe('ftm-delta');
    expect(detectSanctionsFormat('{"id":"NK-1","cap', 'entities.ftm.json')).toBe('ftm');
    expect(detectSanctionsFormat('{"id":"NK-1","cap', '20240527-entities.delta.json')).toBe('ftm-delta');
    expect(detectSanctionsFormat('"id","schema","name","aliases"\n')).toBe('targets-csv');
  });

  it('refuses what it does not know', () => {
    expect(() => detectSanctionsFormat('<html><body>', 'list.xml')).toThrow(/unrecognised sanctions XML/);
    expect(() => detectSanctionsFormat('name;country\n', 'data.txt')).toThrow(
      /unrecognised sanctions file format \(data\.txt\)/,
    );
  });
});
