// The eForms mapping on the recorded fixtures, field for field (test/fixtures/procurement/SOURCE.md),
// plus the edges: a buyer number failing mod-11 stays unlinked, malformed XML and notices without
// an id are refused, and planning notices and plain corrections are not kept.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eformsInstant, NoticeSkipped, parseNotice } from '../../../src/sources/procurement/eforms.ts';

const DIR = path.resolve(import.meta.dirname, '../../fixtures/procurement');
const parse = (file: string) => parseNotice(createReadStream(path.join(DIR, file)));
const parseText = (xml: string) => parseNotice(Readable.from([xml]));

describe('eForms notices', () => {
  it('maps a Doffin competition notice with two lots', async () => {
    const n = await parse('doffin/2026-107304.xml');
    expect(n).toEqual({
      eformsId: '3f1c9a52-6d0e-4b7a-9a7e-1c2d3e4f5a60',
      procedureId: 'b7e21f04-58c3-4d1a-8e6f-0a9b8c7d6e51',
      kind: 'competition',
      noticeTypeCode: 'cn-standard',
      title: 'Rammeavtale for renhold av skolebygg',
      description:
        'Utdanningsetaten inviterer til åpen anbudskonkurranse om rammeavtale for daglig renhold og hovedrengjøring av skolebygg i to delområder.',
      buyer: {
        name: 'Oslo kommune v/ Utdanningsetaten',
        orgNumber: '974760673',
        companyId: '974760673',
        country: 'NO',
      },
      cpvCodes: ['90911200', '90919200'],
      procedureType: 'open',
      publishedAt: '2026-11-02T08:15:00.000Z',
      deadline: '2026-12-15T11:00:00.000Z',
      estimatedValue: 12500000,
      currency: 'NOK',
      lots: [
        {
          lotId: 'LOT-0001',
          title: 'Delområde 1: Oslo sentrum og øst',
          cpvCodes: ['90911200'],
          estimatedValue: 7000000,
          currency: 'NOK',
          deadline: '2026-12-15T11:00:00.000Z',
          nutsCodes: ['NO081'],
        },
        {
          lotId: 'LOT-0002',
          title: 'Delområde 2: Oslo vest og nord',
          cpvCodes: ['90919200'],
          estimatedValue: 5500000,
          currency: 'NOK',
          deadline: '2026-12-16T11:00:00.000Z',
          nutsCodes: ['NO081'],
        },
      ],
      nutsCodes: ['NO081'],
      winners: [],
      awardedValue: null,
      tedId: null,
      language: 'NOR',
    });
  });

  it('maps a Doffin result notice with two winners, their org numbers and awarded values', async () => {
    const n = await parse('doffin/2026-109851.xml');
    expect(n.kind).toBe('result');
    expect(n.procedureId).toBe('b7e21f04-58c3-4d1a-8e6f-0a9b8c7d6e51');
    expect(n.buyer.orgNumber).toBe('974760673');
    expect(n.deadline).toBeNull();
    expect(n.publishedAt).toBe('2027-01-25T13:30:00.000Z');
    expect(n.awardedValue).toBe(11650000);
    expect(n.currency).toBe('NOK');
    expect(n.winners).toEqual([
      {
        name: 'Renhold Øst AS',
        orgNumber: '982463718',
        companyId: '982463718',
        country: 'NO',
        value: 6450000,
        currency: 'NOK',
        lots: ['LOT-0001'],
      },
      {
        name: 'Vestkant Renhold AS',
        orgNumber: '914782007',
        companyId: '914 782 007',
        country: 'NO',
        value: 5200000,
        currency: 'NOK',
        lots: ['LOT-0002'],
      },
    ]);
  });

  it('maps a Doffin cancellation (a change notice with reason cancel)', async () => {
    const n = await parse('doffin/2026-110422.xml');
    expect(n).toMatchObject({
      eformsId: 'e4f5a6b7-3c2d-4b1a-9f8e-6d5c4b3a2f18',
      procedureId: 'c9d8e7f6-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
      kind: 'cancellation',
      title: 'Vintervedlikehold riksveger Buskerud 2027–2032',
      buyer: { name: 'Statens vegvesen', orgNumber: '971032081', country: 'NO' },
      cpvCodes: ['90620000'],
      procedureType: 'restricted',
      estimatedValue: 48000000,
      deadline: null,
      winners: [],
    });
  });

  it('maps the TED copy of a Doffin notice to the same notice, plus its publication number', async () => {
    const [doffin, ted] = await Promise.all([parse('doffin/2026-107304.xml'), parse('ted/00712345-2026.xml')]);
    expect(ted.tedId).toBe('712345-2026');
    expect({ ...ted, tedId: null }).toEqual(doffin);
  });

  it('maps a TED result with a Norwegian and a Swedish winner', async () => {
    const n = await parse('ted/00745678-2026.xml');
    expect(n).toMatchObject({
      kind: 'result',
      tedId: '745678-2026',
      buyer: { name: 'Helse Sør-Øst RHF', orgNumber: '991324968', country: 'NO' },
      cpvCodes: ['33194110', '33140000'],
      procedureType: 'neg-w-call',
      nutsCodes: ['NO020', 'NO081'],
      estimatedValue: 90000000,
      awardedValue: 86400000,
    });
    expect(n.winners.map((w) => [w.name, w.orgNumber, w.companyId, w.country, w.value, w.lots])).toEqual([
      ['Medisinsk Utstyr Norge AS', '935411718', '935411718', 'NO', 51800000, ['LOT-0000']],
      ['Nordisk Medicinteknik AB', null, '5567321905', 'SE', 34600000, ['LOT-0000']],
    ]);
  });

  it('maps a TED cancellation of a Danish buyer: its CVR number is no Norwegian org number', async () => {
    const n = await parse('ted/00751234-2026.xml');
    expect(n).toMatchObject({
      kind: 'cancellation',
      tedId: '751234-2026',
      buyer: { name: 'Region Hovedstaden', orgNumber: null, companyId: '29190623', country: 'DK' },
      currency: 'DKK',
      language: 'DAN',
    });
  });

  it('keeps a notice whose buyer number fails the mod-11 check, unlinked', async () => {
    const xml = await readFile(path.join(DIR, 'doffin/2026-107304.xml'), 'utf8');
    const n = await parseText(xml.replace('<cbc:CompanyID>974760673<', '<cbc:CompanyID>974760674<'));
    expect(n.buyer).toEqual({
      name: 'Oslo kommune v/ Utdanningsetaten',
      orgNumber: null,
      companyId: '974760674',
      country: 'NO',
    });
  });

  it('refuses malformed XML and a notice without an id; skips planning notices and corrections', async () => {
    const xml = await readFile(path.join(DIR, 'doffin/2026-107304.xml'), 'utf8');
    await expect(parseText(xml.slice(0, 2000))).rejects.toThrow(/malformed XML/);
    await expect(parseText(xml.replace(/<cbc:ID schemeName="notice-id">[^<]*<\/cbc:ID>/, ''))).rejects.toThrow(
      /no notice id/,
    );
    await expect(parseText(xml.replace('listName="competition"', 'listName="planning"'))).rejects.toThrow(
      NoticeSkipped,
    );
    const correction = xml.replace(
      '<efac:NoticeSubType>',
      '<efac:Changes><efac:ChangeReason><cbc:ReasonCode listName="change-corrig-justification">time-lim</cbc:ReasonCode></efac:ChangeReason></efac:Changes><efac:NoticeSubType>',
    );
    await expect(parseText(correction)).rejects.toThrow(NoticeSkipped);
  });

  it('reads eForms dates with and without times and zones', () => {
    expect(eformsInstant('2026-12-15+01:00', '12:00:00+01:00')).toBe('2026-12-15T11:00:00.000Z');
    expect(eformsInstant('2026-12-15Z', null)).toBe('2026-12-15T00:00:00.000Z');
    expect(eformsInstant('2026-12-15', '23:30:00')).toBe('2026-12-15T23:30:00.000Z');
    expect(eformsInstant('15.12.2026', null)).toBeNull();
    expect(eformsInstant(null, '12:00:00')).toBeNull();
  });

  it('never throws anything but an Error on arbitrary input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (s) => {
        const r = await parseText(s).then(
          () => 'ok',
          (e: unknown) => (e instanceof Error ? 'error' : 'other'),
        );
        expect(r).not.toBe('other');
      }),
      { numRuns: 200 },
    );
  });
});
