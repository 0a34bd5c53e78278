// Key figures of a Swedish annual report in Inline XBRL (the XHTML file in the ZIP Bolagsverket's
// `dokument/{id}` returns), tagged with the Swedish taxonomies of taxonomier.se: the entry point
// (`link:schemaRef` in `ix:references`) is a K2 or K3 profile (…/se/fr/gaap/k2/…, …/k3/…); a K3
// group report (koncernredovisning) names the …/k3k/… profile, and its figures are the group's,
// stored as KONSERN apart from the company's own accounts. Amounts are `ix:nonFraction` facts of
// `se-gen-base` (Nettoomsattning, Rorelseresultat, AretsResultat, EgetKapital, Tillgangar,
// MedelantaletAnstallda …) read with their format, scale and sign (ix-number.ts). Only facts of
// contexts without dimensions count: the reporting year's duration for the income statement, the
// instant at its end for the balance sheet; the comparative years in the same file are ignored.
// The year comes from se-cd-base:RakenskapsarForstaDag / RakenskapsarSistaDag when tagged.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { IxNumberError, ixNumber } from './ix-number.ts';

const IX = new Set(['http://www.xbrl.org/2013/inlineXBRL', 'http://www.xbrl.org/2008/inlineXBRL']);
const XBRLI = 'http://www.xbrl.org/2003/instance';
const LINK = 'http://www.xbrl.org/2003/linkbase';
const XLINK = 'http://www.w3.org/1999/xlink';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const SE_GEN_BASE = /^http:\/\/www\.taxonomier\.se\/se\/fr\/gen-base\//;
const SE_TAXONOMY = /^http:\/\/www\.taxonomier\.se\//;
/** Entry points of annual reports (årsredovisning) under K2 or K3, and K3's group profile. */
const ANNUAL_REPORT_ENTRY = /\/se\/fr\/gaap\/(k2|k3|k3k)\//i;

/** se-gen-base concepts read, by the figure they fill (first present wins). */
export const SE_CONCEPTS = {
  revenue: ['Nettoomsattning'],
  operatingProfit: ['Rorelseresultat'],
  netResult: ['AretsResultat'],
  equity: ['EgetKapital'],
  // Summa tillgångar; its other side (Summa eget kapital och skulder) is the same balance total.
  totalAssets: ['Tillgangar', 'EgetKapitalSkulder'],
  employees: ['MedelantaletAnstallda'],
} as const;
/** Liabilities are the sum of the two debt totals the balance sheet shows (provisions and untaxed reserves apart). */
const LIABILITY_PARTS = ['LangfristigaSkulder', 'KortfristigaSkulder'] as const;
const DURATION: readonly string[] = ['revenue', 'operatingProfit', 'netResult', 'employees'];

export interface SeKeyFigures {
  orgNumber: string | null;
  accountsType: 'SELSKAP' | 'KONSERN';
  /** The profile named: k2, k3 or k3k. */
  framework: string;
  periodFrom: string | null;
  periodTo: string;
  currency: string | null;
  revenue: number | null;
  operatingProfit: number | null;
  netResult: number | null;
  equity: number | null;
  totalAssets: number | null;
  totalLiabilities: number | null;
  employees: number | null;
}

/** Why a document could not be read; never carries the document's content beyond a short token. */
export class IxbrlError extends Error {}
/** The document is an Inline XBRL file, but not an annual report (an audit report beside it). */
export class NotAnnualReportError extends IxbrlError {}

interface Context {
  start: string | null;
  end: string | null;
  instant: string | null;
  dimensional: boolean;
}
interface Fact {
  concept: string;
  context: string;
  unit: string | null;
  attrs: { format: string | null; scale: string | null; sign: string | null };
  nil: boolean;
  text: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Parses one iXBRL (XHTML) document; throws IxbrlError when it is malformed, truncated or not a Swedish annual report. */
export function parseSeIxbrl(xhtml: string): SeKeyFigures {
  const contexts = new Map<string, Context>();
  const units = new Map<string, string>();
  const schemaRefs: string[] = [];
  const facts: Fact[] = [];
  const texts = new Map<string, string>();
  const open: Fact[] = [];
  let nonNumeric: { concept: string; text: string; depth: number } | null = null;
  let ctx: (Context & { id: string }) | null = null;
  let field: 'startDate' | 'endDate' | 'instant' | null = null;
  let unit: string | null = null;
  let text = '';
  let depth = 0;
  const parser = new SaxesParser({ xmlns: true });
  const resolveName = (qname: string, t: SaxesTagNS) => {
    const i = qname.indexOf(':');
    const prefix = i < 0 ? '' : qname.slice(0, i);
    return { uri: parser.resolve(prefix) ?? t.ns?.[prefix] ?? '', local: qname.slice(i + 1) };
  };
  parser.on('opentag', (t: SaxesTagNS) => {
    depth++;
    text = '';
    const attr = (name: string, uri = '') => {
      const a = Object.values(t.attributes).find((x) => x.local === name && x.uri === uri);
      return a === undefined ? null : String(a.value);
    };
    if (t.uri === LINK && t.local === 'schemaRef') schemaRefs.push(attr('href', XLINK) ?? '');
    else if (t.uri === XBRLI && t.local === 'context')
      ctx = { id: attr('id') ?? '', start: null, end: null, instant: null, dimensional: false };
    else if (ctx && t.uri === XBRLI && (t.local === 'startDate' || t.local === 'endDate' || t.local === 'instant'))
      field = t.local;
    else if (ctx && t.uri === XBRLI && (t.local === 'segment' || t.local === 'scenario')) ctx.dimensional = true;
    else if (t.uri === XBRLI && t.local === 'unit') unit = attr('id');
    else if (IX.has(t.uri) && t.local === 'nonFraction') {
      const name = resolveName(attr('name') ?? '', t);
      open.push({
        concept: SE_GEN_BASE.test(name.uri) ? name.local : '',
        context: attr('contextRef') ?? '',
        unit: attr('unitRef'),
        attrs: { format: attr('format'), scale: attr('scale'), sign: attr('sign') },
        nil: attr('nil', XSI) === 'true',
        text: '',
      });
    } else if (IX.has(t.uri) && t.local === 'nonNumeric' && !nonNumeric) {
      const name = resolveName(attr('name') ?? '', t);
      if (SE_TAXONOMY.test(name.uri)) nonNumeric = { concept: name.local, text: '', depth };
    }
  });
  parser.on('text', (s) => {
    text += s;
    for (const f of open) f.text += s;
    if (nonNumeric) nonNumeric.text += s;
  });
  parser.on('closetag', (t: SaxesTagNS) => {
    const v = text.trim();
    if (ctx && field === t.local && t.uri === XBRLI) {
      ctx[field === 'startDate' ? 'start' : field === 'endDate' ? 'end' : 'instant'] = v;
      field = null;
    } else if (ctx && t.uri === XBRLI && t.local === 'context') {
      contexts.set(ctx.id, ctx);
      ctx = null;
    } else if (unit !== null && t.uri === XBRLI && t.local === 'measure') {
      const m = /^[^:]*:([A-Z]{3})$/.exec(v);
      if (m && v.startsWith('iso4217:')) units.set(unit, m[1]);
    } else if (t.uri === XBRLI && t.local === 'unit') unit = null;
    else if (IX.has(t.uri) && t.local === 'nonFraction') {
      const f = open.pop();
      if (f && f.concept) facts.push(f);
    } else if (nonNumeric && nonNumeric.depth === depth && IX.has(t.uri) && t.local === 'nonNumeric') {
      if (!texts.has(nonNumeric.concept)) texts.set(nonNumeric.concept, nonNumeric.text.trim());
      nonNumeric = null;
    }
    text = '';
    depth--;
  });
  try {
    parser.write(xhtml).close();
  } catch (err) {
    throw new IxbrlError(`not well-formed XHTML (${(err as Error).message.split('\n')[0].slice(0, 100)})`);
  }

  const entry = schemaRefs.map((h) => ANNUAL_REPORT_ENTRY.exec(h)?.[1]?.toLowerCase()).filter(Boolean) as string[];
  if (!schemaRefs.length) throw new IxbrlError('no taxonomy named (no link:schemaRef in ix:references)');
  if (!entry.length) {
    if (schemaRefs.some((h) => SE_TAXONOMY.test(h.replace(/^https:/, 'http:').replace('//xbrl.', '//www.'))))
      throw new NotAnnualReportError(`not an annual report (schemaRef ${schemaRefs[0].slice(0, 120)})`);
    throw new IxbrlError(`unknown taxonomy (schemaRef ${schemaRefs[0].slice(0, 120)})`);
  }
  const framework = entry.includes('k3k') ? 'k3k' : entry.includes('k3') ? 'k3' : 'k2';

  // The reporting year: as tagged, else the latest duration of a non-dimensional context.
  let periodTo = texts.get('RakenskapsarSistaDag') ?? null;
  let periodFrom = texts.get('RakenskapsarForstaDag') ?? null;
  if (periodTo !== null && !DATE.test(periodTo)) throw new IxbrlError('RakenskapsarSistaDag is not a date');
  if (periodFrom !== null && !DATE.test(periodFrom)) periodFrom = null;
  if (periodTo === null) {
    const durations = [...contexts.values()].filter((c) => !c.dimensional && c.end && DATE.test(c.end));
    const latest = durations.sort((a, b) => b.end!.localeCompare(a.end!))[0];
    if (!latest) throw new IxbrlError('no reporting period (no RakenskapsarSistaDag, no duration context)');
    periodTo = latest.end!;
    periodFrom = latest.start;
  }
  const inYear = (f: Fact, duration: boolean) => {
    const c = contexts.get(f.context);
    if (!c || c.dimensional) return false;
    return duration ? c.end === periodTo && (periodFrom === null || c.start === periodFrom) : c.instant === periodTo;
  };
  let currency: string | null = null;
  const value = (concepts: readonly string[], duration: boolean, money = true): number | null => {
    for (const concept of concepts) {
      const f = facts.find((x) => x.concept === concept && inYear(x, duration));
      if (!f || f.nil) continue;
      let n: number;
      try {
        n = ixNumber(f.text, f.attrs);
      } catch (err) {
        if (err instanceof IxNumberError) throw new IxbrlError(`se-gen-base:${concept}: ${err.message}`);
        throw err;
      }
      if (money && f.unit && units.has(f.unit)) currency ??= units.get(f.unit)!;
      return Math.round(n);
    }
    return null;
  };
  const figure = (k: keyof typeof SE_CONCEPTS) => value(SE_CONCEPTS[k], DURATION.includes(k), k !== 'employees');
  const parts = LIABILITY_PARTS.map((c) => value([c], false));
  const out: SeKeyFigures = {
    orgNumber: texts.get('Organisationsnummer')?.replace(/\D/g, '') || null,
    accountsType: framework === 'k3k' ? 'KONSERN' : 'SELSKAP',
    framework,
    periodFrom,
    periodTo,
    currency: null,
    revenue: figure('revenue'),
    operatingProfit: figure('operatingProfit'),
    netResult: figure('netResult'),
    equity: figure('equity'),
    totalAssets: figure('totalAssets'),
    totalLiabilities: parts.every((p) => p === null) ? null : parts.reduce<number>((s, p) => s + (p ?? 0), 0),
    employees: figure('employees'),
  };
  if ([out.revenue, out.operatingProfit, out.netResult, out.equity, out.totalAssets].every((x) => x === null))
    throw new IxbrlError('no key figure of the reporting year (no se-gen-base fact in its contexts)');
  return { ...out, currency };
}
