// Key figures of a Finnish financial statement as PRH's open XBRL API serves it: an XBRL instance
// of the OYTP framework (Finnish GAAP, the SBR taxonomy of the State Treasury; `link:schemaRef`
// points at …/oytp/…/oytp_gaap_ind.xsd). The line item is not the element name: every amount is a
// `fi_met:md103` (an accounting-period accumulation: income statement) or `fi_met:mi53` (a book
// value: balance sheet) fact whose context names the line in its `fi_dim:MCY` member (fi_MC:x673 =
// liikevaihto). A context with a `fi_dim:REF` member holds the comparative year (fi_RF:x4 previous
// balance date, fi_RF:x53 previous period) and is ignored. The period comes from `fi_met:di120`
// (start) and `fi_met:di121` (end), the business ID from `fi_met:si289`. Amounts are in units of
// the unit's currency whatever their `decimals` (-3 means rounded to thousands, not stated in them).
import { SaxesParser, type SaxesTagNS } from 'saxes';

const XBRLI = 'http://www.xbrl.org/2003/instance';
const XBRLDI = 'http://xbrl.org/2006/xbrldi';
const LINK = 'http://www.xbrl.org/2003/linkbase';
const XLINK = 'http://www.w3.org/1999/xlink';
const FI_MET = 'http://www.suomi.fi/xbrl/crr/dict/met';

/** The MCY members read, by the figure they fill (first present wins), with their Finnish labels. */
export const PRH_LINE_ITEMS = {
  revenue: ['x673'], // Liikevaihto
  operatingProfit: ['x689'], // Liikevoitto (-tappio)
  netResult: ['x740'], // Tilikauden voitto (tappio)
  equity: ['x376'], // Oma pääoma
  totalAssets: ['x360'], // Vastaavaa (taseen loppusumma)
  totalLiabilities: ['x424'], // Vieras pääoma
} as const;
/** The concept an amount must be, by statement: accumulations for the income statement, book values for the balance sheet. */
const CONCEPT: Record<keyof typeof PRH_LINE_ITEMS, string> = {
  revenue: 'md103',
  operatingProfit: 'md103',
  netResult: 'md103',
  equity: 'mi53',
  totalAssets: 'mi53',
  totalLiabilities: 'mi53',
};

export interface PrhKeyFigures {
  businessId: string | null;
  periodFrom: string | null;
  periodTo: string;
  currency: string | null;
  revenue: number | null;
  operatingProfit: number | null;
  netResult: number | null;
  equity: number | null;
  totalAssets: number | null;
  totalLiabilities: number | null;
}

/** Why a document could not be read; the message names the problem, never the document's content. */
export class PrhXbrlError extends Error {}

interface Context {
  members: Map<string, string>;
  other: boolean;
}

const localOf = (qname: string) => qname.slice(qname.indexOf(':') + 1).trim();
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Parses one instance document; throws PrhXbrlError when it is malformed, truncated or of an unknown taxonomy. */
export function parsePrhXbrl(xml: string): PrhKeyFigures {
  const contexts = new Map<string, Context>();
  const units = new Map<string, string>();
  const facts: { concept: string; context: string; unit: string | null; value: string; nil: boolean }[] = [];
  const schemaRefs: string[] = [];
  let root: string | null = null;
  let ctx: (Context & { id: string }) | null = null;
  let dim: string | null = null;
  let unit: string | null = null;
  let fact: { concept: string; context: string; unit: string | null; nil: boolean } | null = null;
  let text = '';
  const parser = new SaxesParser({ xmlns: true });
  parser.on('opentag', (t: SaxesTagNS) => {
    text = '';
    const attr = (name: string, uri = '') =>
      Object.values(t.attributes).find((a) => a.local === name && a.uri === uri)?.value;
    if (root === null) root = `${t.uri}|${t.local}`;
    if (t.uri === LINK && t.local === 'schemaRef') schemaRefs.push(String(attr('href', XLINK) ?? ''));
    else if (t.uri === XBRLI && t.local === 'context')
      ctx = { id: String(attr('id') ?? ''), members: new Map(), other: false };
    else if (ctx && t.uri === XBRLDI && t.local === 'explicitMember') dim = localOf(String(attr('dimension') ?? ''));
    else if (ctx && t.uri === XBRLDI && t.local === 'typedMember') ctx.other = true;
    else if (t.uri === XBRLI && t.local === 'unit') unit = String(attr('id') ?? '');
    else if (t.uri === FI_MET && attr('contextRef') !== undefined)
      fact = {
        concept: t.local,
        context: String(attr('contextRef')),
        unit: attr('unitRef') === undefined ? null : String(attr('unitRef')),
        nil: attr('nil', 'http://www.w3.org/2001/XMLSchema-instance') === 'true',
      };
  });
  parser.on('text', (s) => (text += s));
  parser.on('closetag', (t: SaxesTagNS) => {
    const v = text.trim();
    if (ctx && dim !== null && t.uri === XBRLDI && t.local === 'explicitMember') {
      ctx.members.set(dim, localOf(v));
      dim = null;
    } else if (ctx && t.uri === XBRLI && t.local === 'context') {
      contexts.set(ctx.id, ctx);
      ctx = null;
    } else if (unit !== null && t.uri === XBRLI && t.local === 'measure') {
      if (/^[^:]*:[A-Z]{3}$/.test(v) || /^[A-Z]{3}$/.test(v)) units.set(unit, localOf(v));
    } else if (t.uri === XBRLI && t.local === 'unit') unit = null;
    else if (fact && t.uri === FI_MET && t.local === fact.concept) {
      facts.push({ ...fact, value: v });
      fact = null;
    }
    text = '';
  });
  try {
    parser.write(xml).close();
  } catch (err) {
    throw new PrhXbrlError(`not well-formed XML (${(err as Error).message.split('\n')[0].slice(0, 100)})`);
  }
  if (root !== `${XBRLI}|xbrl`) throw new PrhXbrlError('not an XBRL instance (the root is not xbrli:xbrl)');
  if (!schemaRefs.some((href) => /\/oytp\//i.test(href)))
    throw new PrhXbrlError(`unknown taxonomy (schemaRef ${schemaRefs[0]?.slice(0, 120) || 'missing'})`);

  const general = (concept: string) => facts.find((f) => f.concept === concept)?.value ?? null;
  const periodTo = general('di121');
  const periodFrom = general('di120');
  if (!periodTo || !DATE.test(periodTo)) throw new PrhXbrlError('no accounting period end (fi_met:di121)');
  if (periodFrom !== null && !DATE.test(periodFrom))
    throw new PrhXbrlError('the accounting period start (fi_met:di120) is not a date');

  // Current-year line items: contexts with an MCY member and no other dimension (no REF).
  const current = (f: (typeof facts)[number]) => {
    const c = contexts.get(f.context);
    return c && !c.other && c.members.size === 1 && c.members.has('MCY') ? c.members.get('MCY')! : null;
  };
  let currency: string | null = null;
  const value = (figure: keyof typeof PRH_LINE_ITEMS): number | null => {
    for (const member of PRH_LINE_ITEMS[figure]) {
      const f = facts.find((x) => x.concept === CONCEPT[figure] && current(x) === member);
      if (!f || f.nil) continue;
      if (!DECIMAL.test(f.value)) throw new PrhXbrlError(`the ${figure} amount (fi_MC:${member}) is not a number`);
      if (f.unit && units.has(f.unit)) currency ??= units.get(f.unit)!;
      return Math.round(Number(f.value));
    }
    return null;
  };
  const out: PrhKeyFigures = {
    businessId: general('si289'),
    periodFrom,
    periodTo,
    currency: null,
    revenue: value('revenue'),
    operatingProfit: value('operatingProfit'),
    netResult: value('netResult'),
    equity: value('equity'),
    totalAssets: value('totalAssets'),
    totalLiabilities: value('totalLiabilities'),
  };
  if (
    out.revenue === null &&
    out.operatingProfit === null &&
    out.netResult === null &&
    out.equity === null &&
    out.totalAssets === null
  )
    throw new PrhXbrlError(
      'no key figure of the reporting year (no fi_MC line item of the income statement or balance sheet)',
    );
  return { ...out, currency };
}
