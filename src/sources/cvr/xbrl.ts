// Key figures of a Danish annual report in XBRL (the instance document Erhvervsstyrelsen lists in
// the `offentliggoerelser` index). Facts are elements of the Danish taxonomy (namespace
// http://xbrl.dcca.dk/fsa, general data in http://xbrl.dcca.dk/gsd), each tied to a context by
// `contextRef`. Only facts of contexts without dimensions (no segment/scenario) whose period is the
// reporting period count: the duration for the income statement, the instant at its end for the
// balance sheet; the comparative year in the same file is ignored.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { FinancialInput } from '../../domain/company.ts';

export interface XbrlKeyFigures {
  periodFrom: string | null;
  periodTo: string;
  currency: string | null;
  /** Nettoomsætning (fsa:Revenue), or — when a small company reports none — its gross profit. */
  revenue: number | null;
  /** Which of the two `revenue` is. */
  revenueKind: 'revenue' | 'grossProfit' | null;
  operatingProfit: number | null;
  netResult: number | null;
  equity: number | null;
  totalAssets: number | null;
  totalLiabilities: number | null;
  employees: number | null;
}

const FSA = /^http:\/\/xbrl\.dcca\.dk\/fsa$/;
const GSD = /^http:\/\/xbrl\.dcca\.dk\/gsd$/;
const XBRLI = 'http://www.xbrl.org/2003/instance';

/** Taxonomy elements read, by the figure they fill (first present wins). */
export const XBRL_ELEMENTS = {
  revenue: ['Revenue'],
  grossProfit: ['GrossProfitLoss', 'GrossResult'],
  operatingProfit: ['ProfitLossFromOrdinaryOperatingActivities'],
  netResult: ['ProfitLoss'],
  equity: ['Equity'],
  totalAssets: ['Assets', 'LiabilitiesAndEquity'],
  totalLiabilities: ['LiabilitiesOtherThanProvisions'],
  employees: ['AverageNumberOfEmployees'],
} as const;

interface Context {
  start: string | null;
  end: string | null;
  instant: string | null;
  dimensional: boolean;
}

export class XbrlError extends Error {}

/** Parses one XBRL instance; throws XbrlError when it is not well-formed or lacks a reporting period. */
export function parseXbrlKeyFigures(xml: string): XbrlKeyFigures {
  const contexts = new Map<string, Context>();
  const facts: { name: string; context: string; unit: string | null; value: string }[] = [];
  const general = new Map<string, string>();
  const parser = new SaxesParser({ xmlns: true });
  let ctx: (Context & { id: string }) | null = null;
  let text = '';
  let field: string | null = null;
  let fact: { name: string; context: string; unit: string | null } | null = null;
  let generalName: string | null = null;

  parser.on('opentag', (t: SaxesTagNS) => {
    text = '';
    if (t.uri === XBRLI && t.local === 'context') {
      ctx = { id: String(t.attributes.id?.value ?? ''), start: null, end: null, instant: null, dimensional: false };
    } else if (ctx && t.uri === XBRLI && ['startDate', 'endDate', 'instant'].includes(t.local)) field = t.local;
    else if (ctx && t.uri === XBRLI && (t.local === 'segment' || t.local === 'scenario')) ctx.dimensional = true;
    else if (FSA.test(t.uri) && t.attributes.contextRef)
      fact = {
        name: t.local,
        context: String(t.attributes.contextRef.value),
        unit: t.attributes.unitRef ? String(t.attributes.unitRef.value) : null,
      };
    else if (GSD.test(t.uri)) generalName = t.local;
  });
  parser.on('text', (s) => (text += s));
  parser.on('closetag', (t: SaxesTagNS) => {
    const v = text.trim();
    if (ctx && field === t.local && t.uri === XBRLI) {
      if (t.local === 'startDate') ctx.start = v;
      else if (t.local === 'endDate') ctx.end = v;
      else ctx.instant = v;
      field = null;
    } else if (ctx && t.uri === XBRLI && t.local === 'context') {
      contexts.set(ctx.id, ctx);
      ctx = null;
    } else if (fact && fact.name === t.local) {
      facts.push({ ...fact, value: v });
      fact = null;
    } else if (generalName === t.local) {
      general.set(t.local, v);
      generalName = null;
    }
    text = '';
  });
  try {
    parser.write(xml).close();
  } catch (err) {
    throw new XbrlError(
      `the XBRL document is not well-formed XML: ${(err as Error).message.split('\n')[0].slice(0, 120)}`,
    );
  }

  const periodTo = general.get('ReportingPeriodEndDate') ?? null;
  const periodFrom = general.get('ReportingPeriodStartDate') ?? null;
  if (!periodTo || !/^\d{4}-\d{2}-\d{2}$/.test(periodTo))
    throw new XbrlError('the XBRL document has no gsd:ReportingPeriodEndDate');
  const current = (c: Context | undefined) =>
    !!c &&
    !c.dimensional &&
    (c.instant === periodTo || (c.end === periodTo && (periodFrom === null || c.start === periodFrom)));
  const value = (names: readonly string[]): number | null => {
    for (const name of names) {
      const f = facts.find((x) => x.name === name && current(contexts.get(x.context)));
      if (f && f.value !== '' && Number.isFinite(Number(f.value))) return Number(f.value);
    }
    return null;
  };
  const revenue = value(XBRL_ELEMENTS.revenue);
  const gross = revenue === null ? value(XBRL_ELEMENTS.grossProfit) : null;
  const money = facts.find(
    (f) => f.unit && current(contexts.get(f.context)) && XBRL_ELEMENTS.netResult.includes(f.name as 'ProfitLoss'),
  );
  const unitId = money?.unit ?? null;
  return {
    periodFrom,
    periodTo,
    // Unit ids are free names; Danish filers use the currency code ("DKK", "EUR") almost always.
    currency: unitId && /^[A-Z]{3}$/.test(unitId) ? unitId : null,
    revenue: revenue ?? gross,
    revenueKind: revenue !== null ? 'revenue' : gross !== null ? 'grossProfit' : null,
    operatingProfit: value(XBRL_ELEMENTS.operatingProfit),
    netResult: value(XBRL_ELEMENTS.netResult),
    equity: value(XBRL_ELEMENTS.equity),
    totalAssets: value(XBRL_ELEMENTS.totalAssets),
    totalLiabilities: value(XBRL_ELEMENTS.totalLiabilities),
    employees: value(XBRL_ELEMENTS.employees),
  };
}

/**
 * The store's accounts row of one report (`upstreamId`: the publication's id). The company's own
 * accounts, as brreg's SELSKAP; `revenue` is the gross profit when the filer reports no revenue
 * (reporting class B may show only bruttofortjeneste), as Danish registers publish it.
 */
export function toFinancialInput(k: XbrlKeyFigures, upstreamId: string | null, source: string): FinancialInput {
  return {
    upstreamId,
    accountsType: 'SELSKAP',
    periodFrom: k.periodFrom,
    periodTo: k.periodTo,
    currency: k.currency,
    revenue: k.revenue,
    operatingProfit: k.operatingProfit,
    netResult: k.netResult,
    equity: k.equity,
    totalAssets: k.totalAssets,
    totalLiabilities: k.totalLiabilities,
    source,
  };
}
