// Procurement notices for the demo, in eForms (UBL 2.3) as Doffin publishes them, one file per
// notice named by its Doffin id: competitions of the demo's inter-municipal buyers, results
// naming demo companies whose trade fits the work as winners, and a cancellation. The elements
// and their order follow the eForms SDK examples and the hand-written fixtures of
// test/fixtures/procurement (see SOURCE.md there); the values are invented.
import { DEMO_BUYERS, type DemoWorld } from './world.ts';
import { buyerOrgNumbers } from './brreg.ts';

export interface DemoNotice {
  doffinId: string;
  xml: string;
}

interface Spec {
  eformsId: string;
  procedureId: string;
  kind: 'competition' | 'result' | 'cancellation';
  title: string;
  buyer: { org: string; name: string };
  cpv: string;
  issuedAt: string;
  deadline?: string;
  value?: number;
  winners?: { org: string; name: string; value: number }[];
}

/** Work the buyers put out, with its CPV code and the trade word of the companies that win it. */
const WORK = [
  { title: 'Renhold av kommunale bygg', cpv: '90911200', trade: 'Renhold' },
  { title: 'IT-drift og brukerstøtte', cpv: '72000000', trade: 'IT-drift' },
  { title: 'Rehabilitering av skolebygg', cpv: '45453000', trade: 'Bygg' },
  { title: 'Elektroinstallasjoner i helsebygg', cpv: '45310000', trade: 'Elektro' },
  { title: 'Rammeavtale for regnskapstjenester', cpv: '79211000', trade: 'Regnskap' },
  { title: 'Transport av avfall', cpv: '90512000', trade: 'Transport' },
  { title: 'Kantinedrift og catering', cpv: '55520000', trade: 'Catering' },
  { title: 'Rørleggertjenester, rammeavtale', cpv: '45330000', trade: 'Rørlegger' },
  { title: 'Programvareutvikling for selvbetjening', cpv: '72212000', trade: 'Programvare' },
  { title: 'Arkitekttjenester for ny barnehage', cpv: '71220000', trade: 'Arkitekter' },
] as const;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const NS =
  'xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2" xmlns:efac="http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1" xmlns:efbc="http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1" xmlns:efext="http://data.europa.eu/p27/eforms-ubl-extensions/1"';

const organization = (id: string, name: string, org: string) =>
  `<efac:Organization><efac:Company><cac:PartyIdentification><cbc:ID schemeName="organization">${id}</cbc:ID></cac:PartyIdentification><cac:PartyName><cbc:Name languageID="NOR">${esc(name)}</cbc:Name></cac:PartyName><cac:PostalAddress><cac:Country><cbc:IdentificationCode listName="country">NOR</cbc:IdentificationCode></cac:Country></cac:PostalAddress><cac:PartyLegalEntity><cbc:CompanyID>${org}</cbc:CompanyID></cac:PartyLegalEntity></efac:Company></efac:Organization>`;

function noticeXml(s: Spec): string {
  const winners = s.winners ?? [];
  const root = s.kind === 'result' ? 'ContractAwardNotice' : 'ContractNotice';
  const result = winners.length
    ? `<efac:NoticeResult>${winners
        .map(
          (_, i) =>
            `<efac:LotResult><cbc:TenderResultCode listName="winner-selection-status">selec-w</cbc:TenderResultCode><efac:LotTender><cbc:ID schemeName="tender">TEN-000${i + 1}</cbc:ID></efac:LotTender><efac:SettledContract><cbc:ID schemeName="contract">CON-000${i + 1}</cbc:ID></efac:SettledContract><efac:TenderLot><cbc:ID schemeName="Lot">LOT-0001</cbc:ID></efac:TenderLot></efac:LotResult>`,
        )
        .join('')}${winners
        .map(
          (w, i) =>
            `<efac:LotTender><cbc:ID schemeName="tender">TEN-000${i + 1}</cbc:ID><cac:LegalMonetaryTotal><cbc:PayableAmount currencyID="NOK">${w.value}</cbc:PayableAmount></cac:LegalMonetaryTotal><efac:TenderingParty><cbc:ID schemeName="tendering-party">TPA-000${i + 1}</cbc:ID></efac:TenderingParty></efac:LotTender>`,
        )
        .join('')}${winners
        .map(
          (_, i) =>
            `<efac:SettledContract><cbc:ID schemeName="contract">CON-000${i + 1}</cbc:ID><efac:LotTender><cbc:ID schemeName="tender">TEN-000${i + 1}</cbc:ID></efac:LotTender></efac:SettledContract>`,
        )
        .join('')}${winners
        .map(
          (_, i) =>
            `<efac:TenderingParty><cbc:ID schemeName="tendering-party">TPA-000${i + 1}</cbc:ID><efac:Tenderer><cbc:ID schemeName="organization">ORG-000${i + 2}</cbc:ID></efac:Tenderer></efac:TenderingParty>`,
        )
        .join('')}</efac:NoticeResult>`
    : '';
  const changes =
    s.kind === 'cancellation'
      ? '<efac:Changes><efac:ChangeReason><cbc:ReasonCode listName="change-corrig-justification">cancel</cbc:ReasonCode></efac:ChangeReason></efac:Changes>'
      : '';
  const orgs = [
    organization('ORG-0001', s.buyer.name, s.buyer.org),
    ...winners.map((w, i) => organization(`ORG-000${i + 2}`, w.name, w.org)),
  ].join('');
  const value =
    s.value === undefined
      ? ''
      : `<cac:RequestedTenderTotal><cbc:EstimatedOverallContractAmount currencyID="NOK">${s.value}</cbc:EstimatedOverallContractAmount></cac:RequestedTenderTotal>`;
  const deadline = s.deadline
    ? `<cac:TenderingProcess><cac:TenderSubmissionDeadlinePeriod><cbc:EndDate>${s.deadline.slice(0, 10)}Z</cbc:EndDate><cbc:EndTime>12:00:00Z</cbc:EndTime></cac:TenderSubmissionDeadlinePeriod></cac:TenderingProcess>`
    : '';
  const form = s.kind === 'result' ? 'result' : 'competition';
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" ${NS}><ext:UBLExtensions><ext:UBLExtension><ext:ExtensionContent><efext:EformsExtension>${changes}${result}<efac:Organizations>${orgs}</efac:Organizations></efext:EformsExtension></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions><cbc:ID schemeName="notice-id">${s.eformsId}</cbc:ID><cbc:ContractFolderID>${s.procedureId}</cbc:ContractFolderID><cbc:IssueDate>${s.issuedAt.slice(0, 10)}Z</cbc:IssueDate><cbc:IssueTime>09:00:00Z</cbc:IssueTime><cbc:NoticeTypeCode listName="${form}">${form === 'result' ? 'can-standard' : 'cn-standard'}</cbc:NoticeTypeCode><cbc:NoticeLanguageCode>NOR</cbc:NoticeLanguageCode><cac:ContractingParty><cac:Party><cac:PartyIdentification><cbc:ID schemeName="organization">ORG-0001</cbc:ID></cac:PartyIdentification></cac:Party></cac:ContractingParty><cac:TenderingProcess><cbc:ProcedureCode listName="procurement-procedure-type">open</cbc:ProcedureCode></cac:TenderingProcess><cac:ProcurementProject><cbc:Name languageID="NOR">${esc(s.title)}</cbc:Name><cac:MainCommodityClassification><cbc:ItemClassificationCode listName="cpv">${s.cpv}</cbc:ItemClassificationCode></cac:MainCommodityClassification>${value}</cac:ProcurementProject><cac:ProcurementProjectLot><cbc:ID schemeName="Lot">LOT-0001</cbc:ID>${deadline}</cac:ProcurementProjectLot></${root}>`;
}

const uuid = (kind: number, i: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const day = (base: string, days: number) =>
  new Date(Date.parse(`${base}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** 40 procedures: competitions, two thirds of them with a result, every ninth cancelled. */
export function procurementNotices(world: DemoWorld): DemoNotice[] {
  const buyers = buyerOrgNumbers(world).map((org, k) => ({ org, name: DEMO_BUYERS[k].name }));
  const live = world.companies.filter((c) => c.form === 'AS' && !world.changes.deleted.has(c.orgNumber));
  const out: DemoNotice[] = [];
  for (let i = 0; i < 40; i++) {
    const work = WORK[i % WORK.length];
    const buyer = buyers[i % buyers.length];
    const fitting = live.filter((c) => c.trade.word === work.trade);
    // Issued through 2026; the last ones' deadlines lie in 2027, so some competitions are open.
    const issued = day('2026-01-05', i * 8);
    const base = {
      procedureId: uuid(0xf1, i),
      title: `${work.title} ${2026 + (i % 2)}`,
      buyer,
      cpv: work.cpv,
    };
    out.push({
      doffinId: `2026-6${String(i).padStart(5, '0')}`,
      xml: noticeXml({
        ...base,
        eformsId: uuid(0xc1, i),
        kind: 'competition',
        issuedAt: issued,
        deadline: day(issued, i >= 36 ? 120 : 30 + (i % 5) * 10),
        value: 500_000 + ((i * 37) % 40) * 250_000,
      }),
    });
    const after = day(issued, 45 + (i % 5) * 10);
    if (i >= 36) continue; // still open
    if (i % 9 === 4) {
      out.push({
        doffinId: `2026-8${String(i).padStart(5, '0')}`,
        xml: noticeXml({ ...base, eformsId: uuid(0xd1, i), kind: 'cancellation', issuedAt: after }),
      });
    } else if (i % 3 !== 2 && fitting.length) {
      const winners = [
        fitting[i % fitting.length],
        ...(i % 4 === 0 && fitting.length > 1 ? [fitting[(i + 1) % fitting.length]] : []),
      ];
      out.push({
        doffinId: `2026-7${String(i).padStart(5, '0')}`,
        xml: noticeXml({
          ...base,
          eformsId: uuid(0xa1, i),
          kind: 'result',
          issuedAt: after,
          winners: winners.map((w, k) => ({
            org: w.orgNumber,
            name: w.name,
            value: 400_000 + i * 25_000 + k * 10_000,
          })),
        }),
      });
    }
  }
  return out;
}
