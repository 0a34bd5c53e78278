// eForms notices written from a spec, in the structure of the fixtures (test/fixtures/procurement)
// and the SDK's examples (a winner is the tender of a settled contract): for tests that need many
// notices with chosen buyers, winners, dates and values.
export interface NoticeSpec {
  eformsId: string;
  procedureId: string;
  kind: 'competition' | 'result' | 'cancellation';
  title: string;
  buyerOrg: string;
  /** eForms country code (alpha-3), default NOR. */
  buyerCountry?: string;
  cpv: string[];
  /** ISO instant of the notice (IssueDate/IssueTime, in UTC). */
  issuedAt: string;
  /** ISO instant of the tender deadline (competitions). */
  deadline?: string;
  value?: number;
  currency?: string;
  winners?: { org: string; name: string; value: number }[];
  tedId?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const NS =
  'xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2" xmlns:efac="http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1" xmlns:efbc="http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1" xmlns:efext="http://data.europa.eu/p27/eforms-ubl-extensions/1"';

function org(id: string, name: string, companyId: string, country: string): string {
  return `<efac:Organization><efac:Company><cac:PartyIdentification><cbc:ID schemeName="organization">${id}</cbc:ID></cac:PartyIdentification><cac:PartyName><cbc:Name languageID="NOR">${esc(name)}</cbc:Name></cac:PartyName><cac:PostalAddress><cac:Country><cbc:IdentificationCode listName="country">${country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress><cac:PartyLegalEntity><cbc:CompanyID>${companyId}</cbc:CompanyID></cac:PartyLegalEntity></efac:Company></efac:Organization>`;
}

const datePart = (iso: string) => `${iso.slice(0, 10)}Z`;
const timePart = (iso: string) => `${iso.slice(11, 19)}Z`;

export function noticeXml(s: NoticeSpec): string {
  const winners = s.winners ?? [];
  const root = s.kind === 'result' ? 'ContractAwardNotice' : 'ContractNotice';
  const result =
    s.kind === 'result'
      ? `<efac:NoticeResult>${winners
          .map(
            (_, i) =>
              `<efac:LotResult><cbc:TenderResultCode listName="winner-selection-status">selec-w</cbc:TenderResultCode><efac:LotTender><cbc:ID schemeName="tender">TEN-${i}</cbc:ID></efac:LotTender><efac:SettledContract><cbc:ID schemeName="contract">CON-${i}</cbc:ID></efac:SettledContract><efac:TenderLot><cbc:ID schemeName="Lot">LOT-0001</cbc:ID></efac:TenderLot></efac:LotResult>`,
          )
          .join('')}${winners
          .map(
            (w, i) =>
              `<efac:LotTender><cbc:ID schemeName="tender">TEN-${i}</cbc:ID><cac:LegalMonetaryTotal><cbc:PayableAmount currencyID="${s.currency ?? 'NOK'}">${w.value}</cbc:PayableAmount></cac:LegalMonetaryTotal><efac:TenderingParty><cbc:ID schemeName="tendering-party">TPA-${i}</cbc:ID></efac:TenderingParty></efac:LotTender>`,
          )
          .join('')}${winners
          .map(
            (_, i) =>
              `<efac:SettledContract><cbc:ID schemeName="contract">CON-${i}</cbc:ID><efac:LotTender><cbc:ID schemeName="tender">TEN-${i}</cbc:ID></efac:LotTender></efac:SettledContract>`,
          )
          .join('')}${winners
          .map(
            (_, i) =>
              `<efac:TenderingParty><cbc:ID schemeName="tendering-party">TPA-${i}</cbc:ID><efac:Tenderer><cbc:ID schemeName="organization">ORG-W${i}</cbc:ID></efac:Tenderer></efac:TenderingParty>`,
          )
          .join('')}</efac:NoticeResult>`
      : '';
  const changes =
    s.kind === 'cancellation'
      ? '<efac:Changes><efac:ChangeReason><cbc:ReasonCode listName="change-corrig-justification">cancel</cbc:ReasonCode></efac:ChangeReason></efac:Changes>'
      : '';
  const orgs = [
    org('ORG-0001', `Innkjøper ${s.buyerOrg}`, s.buyerOrg, s.buyerCountry ?? 'NOR'),
    ...winners.map((w, i) => org(`ORG-W${i}`, w.name, w.org, 'NOR')),
  ].join('');
  const publication = s.tedId
    ? `<efac:Publication><efbc:NoticePublicationID schemeName="ojs-notice-id">${s.tedId}</efbc:NoticePublicationID></efac:Publication>`
    : '';
  const cpv = s.cpv
    .map((c, i) =>
      i === 0
        ? `<cac:MainCommodityClassification><cbc:ItemClassificationCode listName="cpv">${c}</cbc:ItemClassificationCode></cac:MainCommodityClassification>`
        : `<cac:AdditionalCommodityClassification><cbc:ItemClassificationCode listName="cpv">${c}</cbc:ItemClassificationCode></cac:AdditionalCommodityClassification>`,
    )
    .join('');
  const value =
    s.value === undefined
      ? ''
      : `<cac:RequestedTenderTotal><cbc:EstimatedOverallContractAmount currencyID="${s.currency ?? 'NOK'}">${s.value}</cbc:EstimatedOverallContractAmount></cac:RequestedTenderTotal>`;
  const deadline = s.deadline
    ? `<cac:TenderingProcess><cac:TenderSubmissionDeadlinePeriod><cbc:EndDate>${datePart(s.deadline)}</cbc:EndDate><cbc:EndTime>${timePart(s.deadline)}</cbc:EndTime></cac:TenderSubmissionDeadlinePeriod></cac:TenderingProcess>`
    : '';
  const form = s.kind === 'result' ? 'result' : 'competition';
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" ${NS}><ext:UBLExtensions><ext:UBLExtension><ext:ExtensionContent><efext:EformsExtension>${changes}${result}<efac:Organizations>${orgs}</efac:Organizations>${publication}</efext:EformsExtension></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions><cbc:ID schemeName="notice-id">${s.eformsId}</cbc:ID><cbc:ContractFolderID>${s.procedureId}</cbc:ContractFolderID><cbc:IssueDate>${datePart(s.issuedAt)}</cbc:IssueDate><cbc:IssueTime>${timePart(s.issuedAt)}</cbc:IssueTime><cbc:NoticeTypeCode listName="${form}">${form === 'result' ? 'can-standard' : 'cn-standard'}</cbc:NoticeTypeCode><cbc:NoticeLanguageCode>NOR</cbc:NoticeLanguageCode><cac:ContractingParty><cac:Party><cac:PartyIdentification><cbc:ID schemeName="organization">ORG-0001</cbc:ID></cac:PartyIdentification></cac:Party></cac:ContractingParty><cac:TenderingProcess><cbc:ProcedureCode listName="procurement-procedure-type">open</cbc:ProcedureCode></cac:TenderingProcess><cac:ProcurementProject><cbc:Name languageID="NOR">${esc(s.title)}</cbc:Name>${cpv}${value}</cac:ProcurementProject><cac:ProcurementProjectLot><cbc:ID schemeName="Lot">LOT-0001</cbc:ID>${deadline}</cac:ProcurementProjectLot></${root}>`;
}
