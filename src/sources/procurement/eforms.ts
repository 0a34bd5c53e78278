// Maps one eForms notice (UBL 2.3 with the eForms extension, as Doffin and TED publish them)
// to a procurement notice. Paths follow the eForms SDK: BT-701 notice id (cbc:ID), BT-04
// procedure id (cbc:ContractFolderID), BT-02 notice type (cbc:NoticeTypeCode and its listName,
// the form type), BT-21/BT-24 title and description, BT-262/BT-263 CPV codes, BT-105
// procedure type, BT-131 tender deadline per lot, BT-27 estimated value, BT-5071 place of
// performance (NUTS), organisations (efac:Organizations) with BT-501 company ids, and for
// results efac:NoticeResult (LotResult -> SettledContract -> LotTender -> TenderingParty ->
// Tenderer). A change notice whose reason is `cancel` (change-corrig-justification) is a
// cancellation, and so is a result notice whose every lot closed without a winner.
import { isValidNorwegianOrgNumber } from '../../domain/org-number.ts';
import { all, at, kids, readTree, text, type Node } from './xml-tree.ts';

type NoticeKind = 'competition' | 'result' | 'cancellation';

interface NoticeParty {
  name: string | null;
  /** The Norwegian organisation number when the id is one (9 digits, valid mod-11 check). */
  orgNumber: string | null;
  /** The company id as written in the notice (BT-501), whatever its scheme. */
  companyId: string | null;
  /** ISO 3166 alpha-2 where known (eForms writes alpha-3). */
  country: string | null;
}

interface NoticeWinner extends NoticeParty {
  value: number | null;
  currency: string | null;
  lots: string[];
}

interface NoticeLot {
  lotId: string;
  title: string | null;
  cpvCodes: string[];
  estimatedValue: number | null;
  currency: string | null;
  deadline: string | null;
  nutsCodes: string[];
}

export interface ProcurementNotice {
  /** BT-701: the same in Doffin and TED, so a notice in both is stored once. */
  eformsId: string;
  procedureId: string | null;
  kind: NoticeKind;
  /** BT-02, e.g. cn-standard, can-standard. */
  noticeTypeCode: string | null;
  title: string;
  description: string | null;
  buyer: NoticeParty;
  cpvCodes: string[];
  procedureType: string | null;
  publishedAt: string | null;
  /** The earliest tender deadline of the lots (competition notices). */
  deadline: string | null;
  estimatedValue: number | null;
  currency: string | null;
  lots: NoticeLot[];
  nutsCodes: string[];
  winners: NoticeWinner[];
  awardedValue: number | null;
  /** The TED publication number (OJ S), e.g. 123456-2024, when the notice was published there. */
  tedId: string | null;
  language: string | null;
}

export class NoticeSkipped extends Error {}

const ISO2: Record<string, string> = {
  NOR: 'NO',
  SWE: 'SE',
  DNK: 'DK',
  FIN: 'FI',
  ISL: 'IS',
  DEU: 'DE',
  GBR: 'GB',
  FRA: 'FR',
  NLD: 'NL',
  BEL: 'BE',
  LUX: 'LU',
  POL: 'PL',
  EST: 'EE',
  LVA: 'LV',
  LTU: 'LT',
  IRL: 'IE',
  AUT: 'AT',
  CHE: 'CH',
  ESP: 'ES',
  ITA: 'IT',
  PRT: 'PT',
};

/** `2020-02-04+02:00` and `10:00:00+02:00` -> an ISO instant (a date alone is its start). */
export function eformsInstant(date: string | null, time: string | null): string | null {
  if (!date) return null;
  const d = /^(\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})?$/.exec(date);
  if (!d) return null;
  const t = time ? /^(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(time) : null;
  const zone = t?.[2] ?? d[2] ?? 'Z';
  const ms = Date.parse(`${d[1]}T${t?.[1] ?? '00:00:00'}${zone}`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function amount(n: Node | undefined): { value: number | null; currency: string | null } {
  const v = n ? Number(n.text.trim()) : NaN;
  return Number.isFinite(v) && n?.text.trim()
    ? { value: v, currency: n.attrs.currencyID ?? null }
    : { value: null, currency: null };
}

/** The text in the notice's language when given in several, else the first. */
function inLanguage(nodes: Node[], language: string | null): string | null {
  const pick = nodes.find((n) => n.attrs.languageID === language && n.text.trim()) ?? nodes.find((n) => n.text.trim());
  return pick ? pick.text.trim().replace(/\s+/g, ' ') : null;
}

const unique = (xs: (string | null)[]) => [...new Set(xs.filter((x): x is string => !!x))];

function cpvOf(project: Node | undefined): string[] {
  return unique(
    [
      ...all(project, 'MainCommodityClassification', 'ItemClassificationCode'),
      ...all(project, 'AdditionalCommodityClassification', 'ItemClassificationCode'),
    ]
      .filter((n) => (n.attrs.listName ?? 'cpv') === 'cpv')
      .map((n) => /^(\d{8})/.exec(n.text.trim())?.[1] ?? null),
  );
}

const nutsOf = (project: Node | undefined) =>
  unique(all(project, 'RealizedLocation', 'Address', 'CountrySubentityCode').map((n) => n.text.trim()));

/** Organisation id (ORG-0001) -> party. */
function organisations(ext: Node | undefined): Map<string, NoticeParty> {
  const out = new Map<string, NoticeParty>();
  for (const org of all(ext, 'Organizations', 'Organization')) {
    const company = at(org, 'Company');
    const id = text(company, 'PartyIdentification', 'ID');
    if (!id) continue;
    const companyId = text(company, 'PartyLegalEntity', 'CompanyID');
    const alpha3 = text(company, 'PostalAddress', 'Country', 'IdentificationCode');
    const country = alpha3 ? (ISO2[alpha3] ?? null) : null;
    // Doffin writes the number alone, but spacings ("926 723 073"), the VAT form
    // ("NO952522035MVA") and a label ("Org.nr.978693024") all occur in published notices.
    const m = companyId && /^(?:NO|org\.?\s*nr\.?:?)?\s*((?:\d[\s.-]?){8}\d)\s*(?:MVA)?$/i.exec(companyId);
    const digits = m ? m[1].replace(/\D/g, '') : '';
    const orgNumber = (country === 'NO' || country === null) && isValidNorwegianOrgNumber(digits) ? digits : null;
    out.set(id, { name: inLanguage(all(company, 'PartyName', 'Name'), null), orgNumber, companyId, country });
  }
  return out;
}

function lotsOf(root: Node, language: string | null): NoticeLot[] {
  return kids(root, 'ProcurementProjectLot').map((lot) => {
    const project = at(lot, 'ProcurementProject');
    const deadline = at(lot, 'TenderingProcess', 'TenderSubmissionDeadlinePeriod');
    const est = amount(at(project, 'RequestedTenderTotal', 'EstimatedOverallContractAmount'));
    return {
      lotId: text(lot, 'ID') ?? '',
      title: inLanguage(kids(project, 'Name'), language),
      cpvCodes: cpvOf(project),
      estimatedValue: est.value,
      currency: est.currency,
      deadline: eformsInstant(text(deadline, 'EndDate'), text(deadline, 'EndTime')),
      nutsCodes: nutsOf(project),
    };
  });
}

/**
 * Winners of a result notice. A lot result lists every tender of its lot, losers too; the
 * winning ones are those its settled contracts (efac:SettledContract -> efac:LotTender) name,
 * as in the SDK's can_24_minimal. A lot result naming no contract falls back to its tenders.
 */
function winnersOf(ext: Node | undefined, orgs: Map<string, NoticeParty>): NoticeWinner[] {
  const result = at(ext, 'NoticeResult');
  const ids = (n: Node | undefined, name: string) => kids(n, name).map((k) => text(k, 'ID') ?? '');
  const tenders = new Map(kids(result, 'LotTender').map((t) => [text(t, 'ID') ?? '', t]));
  const parties = new Map(kids(result, 'TenderingParty').map((p) => [text(p, 'ID') ?? '', p]));
  const contracts = new Map(kids(result, 'SettledContract').map((c) => [text(c, 'ID') ?? '', ids(c, 'LotTender')]));
  const byOrg = new Map<string, NoticeWinner>();
  for (const lr of kids(result, 'LotResult')) {
    if (text(lr, 'TenderResultCode') !== 'selec-w') continue;
    const lotId = text(lr, 'TenderLot', 'ID');
    const settled = ids(lr, 'SettledContract').flatMap((c) => contracts.get(c) ?? []);
    const listed = ids(lr, 'LotTender');
    const winning = settled.length ? listed.filter((t) => settled.includes(t)) : listed;
    for (const tenderId of winning.length ? winning : settled) {
      const tender = tenders.get(tenderId);
      if (!tender) continue;
      const paid = amount(at(tender, 'LegalMonetaryTotal', 'PayableAmount'));
      const party = parties.get(text(tender, 'TenderingParty', 'ID') ?? '');
      for (const orgId of ids(party, 'Tenderer')) {
        const org = orgs.get(orgId);
        if (!org) continue;
        const w = byOrg.get(orgId) ?? { ...org, value: null, currency: null, lots: [] };
        if (paid.value !== null) {
          w.value = (w.value ?? 0) + paid.value;
          w.currency ??= paid.currency;
        }
        if (lotId && !w.lots.includes(lotId)) w.lots.push(lotId);
        byOrg.set(orgId, w);
      }
    }
  }
  return [...byOrg.values()];
}

function kindOf(root: Node, ext: Node | undefined): NoticeKind | null {
  const reasons = all(ext, 'Changes', 'ChangeReason', 'ReasonCode').map((n) => n.text.trim());
  if (reasons.includes('cancel')) return 'cancellation';
  if (at(ext, 'Changes')) return null; // other corrections are not notices of their own here
  const form = at(root, 'NoticeTypeCode')?.attrs.listName;
  if (form === 'result') {
    // Every lot closed without a winner (BT-142 clos-nw): the procedure ended without a
    // contract, which Doffin lists as CANCELLED_OR_MISSING_CONCLUSION_OF_CONTRACT.
    const codes = all(ext, 'NoticeResult', 'LotResult', 'TenderResultCode').map((n) => n.text.trim());
    return codes.length && codes.every((c) => c === 'clos-nw') ? 'cancellation' : 'result';
  }
  if (form === 'competition') return form;
  return null;
}

/** Maps a parsed notice; throws NoticeSkipped for forms we do not keep (planning, corrections). */
function mapNotice(root: Node): ProcurementNotice {
  const ext = at(root, 'UBLExtensions', 'UBLExtension', 'ExtensionContent', 'EformsExtension');
  const eformsId = text(root, 'ID');
  if (!eformsId) throw new Error('notice has no notice id (BT-701)');
  const kind = kindOf(root, ext);
  if (!kind) throw new NoticeSkipped(`notice ${eformsId} is neither a competition, a result nor a cancellation`);
  const language = text(root, 'NoticeLanguageCode');
  const project = at(root, 'ProcurementProject');
  const orgs = organisations(ext);
  const buyerRef = text(root, 'ContractingParty', 'Party', 'PartyIdentification', 'ID');
  const buyer = (buyerRef && orgs.get(buyerRef)) || { name: null, orgNumber: null, companyId: null, country: null };
  const lots = lotsOf(root, language);
  const deadlines = lots
    .map((l) => l.deadline)
    .filter((d): d is string => d !== null)
    .sort();
  let est = amount(at(project, 'RequestedTenderTotal', 'EstimatedOverallContractAmount'));
  const lotValues = lots.filter((l) => l.estimatedValue !== null);
  if (est.value === null && lotValues.length && lotValues.every((l) => l.currency === lotValues[0].currency))
    est = { value: lotValues.reduce((s, l) => s + l.estimatedValue!, 0), currency: lotValues[0].currency };
  const winners = kind === 'result' ? winnersOf(ext, orgs) : [];
  const total = amount(at(ext, 'NoticeResult', 'TotalAmount'));
  const winnerSum = winners.reduce((s, w) => s + (w.value ?? 0), 0);
  const publication = at(ext, 'Publication');
  const title = inLanguage(kids(project, 'Name'), language) ?? lots.find((l) => l.title)?.title;
  if (!title) throw new Error(`notice ${eformsId} has no title (BT-21)`);
  return {
    eformsId,
    procedureId: text(root, 'ContractFolderID'),
    kind,
    noticeTypeCode: text(root, 'NoticeTypeCode'),
    title,
    description: inLanguage(kids(project, 'Description'), language),
    buyer,
    cpvCodes: unique([...cpvOf(project), ...lots.flatMap((l) => l.cpvCodes)]),
    procedureType: text(root, 'TenderingProcess', 'ProcedureCode'),
    // BT-05 (dispatch), not the OJ S date: both sources then agree on the notice's content.
    publishedAt: eformsInstant(text(root, 'IssueDate'), text(root, 'IssueTime')),
    deadline: kind === 'competition' ? (deadlines[0] ?? null) : null,
    estimatedValue: est.value,
    currency: est.currency ?? total.currency ?? winners.find((w) => w.currency)?.currency ?? null,
    lots,
    nutsCodes: unique([...nutsOf(project), ...lots.flatMap((l) => l.nutsCodes)]),
    winners,
    awardedValue: total.value ?? (winners.some((w) => w.value !== null) ? winnerSum : null),
    tedId: text(publication, 'NoticePublicationID')?.replace(/^0+/, '') ?? null,
    language,
  };
}

/** Reads and maps one notice document. */
export async function parseNotice(input: AsyncIterable<Buffer | string>): Promise<ProcurementNotice> {
  return mapNotice(await readTree(input));
}
