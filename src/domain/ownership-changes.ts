// How the direct owners of a company changed from one register year to the next it has rows in:
// owners that entered or left, rose or fell by at least 5 percentage points, and a change of the
// largest owner. One rule for GET /api/companies/{orgNumber}/ownership-changes and the `ownership`
// events of a shareholder import, so both say the same. Natural persons are compared (the largest
// owner may be one) but shown only on request; hidden, a person is neither listed nor named
// (the largest owner is then `{ kind: 'person', name: null }`). Pure: the store gives the holders.
import type { FieldValues, NewEvent } from './company-events.ts';
import { pct } from './ownership-summary.ts';

/** A rise or fall is listed from this many percentage points. */
export const CHANGE_PP = 5;

/** One direct owner of the company in one year: its shares over all classes and the base. */
export interface YearOwner {
  kind: 'company' | 'person' | 'foreign';
  orgNumber: string | null;
  name: string | null;
  country: string | null;
  birthYear: number | null;
  shares: number;
  /** All the company's shares less its own (treasury) shares. */
  base: number;
}

export interface OwnerView {
  kind: YearOwner['kind'];
  orgNumber: string | null;
  name: string | null;
  country: string | null;
  birthYear?: number | null;
}

export interface ChangedOwner extends OwnerView {
  pctBefore: number;
  pctAfter: number;
  changePp: number;
}

export interface OwnershipChange {
  fromYear: number;
  toYear: number;
  entered: ChangedOwner[];
  left: ChangedOwner[];
  rose: ChangedOwner[];
  fell: ChangedOwner[];
  largestOwner: {
    before: (OwnerView & { pct: number }) | null;
    after: (OwnerView & { pct: number }) | null;
    changed: boolean;
  };
}

export const ownerKey = (h: YearOwner) =>
  h.orgNumber ? `org|${h.orgNumber}` : [h.kind, h.name ?? '', h.birthYear ?? '', h.country ?? ''].join('|');

/** The change from `before` (the owners in fromYear) to `after` (in toYear). */
export function ownershipChange(
  fromYear: number,
  toYear: number,
  beforeOwners: YearOwner[],
  afterOwners: YearOwner[],
  includePersons: boolean,
): OwnershipChange {
  const before = new Map(beforeOwners.map((h) => [ownerKey(h), h]));
  const after = new Map(afterOwners.map((h) => [ownerKey(h), h]));
  const shown = (h: YearOwner) => includePersons || h.kind !== 'person';
  const owner = (h: YearOwner): OwnerView => ({
    kind: h.kind,
    orgNumber: h.kind === 'person' ? null : h.orgNumber,
    name: shown(h) ? h.name : null,
    country: shown(h) ? h.country : null,
    ...(h.kind === 'person' && shown(h) ? { birthYear: h.birthYear } : {}),
  });
  const share = (h: YearOwner | undefined) => (h ? pct(h.shares / h.base) : 0);
  const largest = (m: Map<string, YearOwner>) =>
    [...m.values()].sort((a, b) => b.shares / b.base - a.shares / a.base || ownerKey(a).localeCompare(ownerKey(b)))[0];
  const row = (k: string): ChangedOwner => {
    const [b, a] = [before.get(k), after.get(k)];
    return { ...owner((a ?? b)!), pctBefore: share(b), pctAfter: share(a), changePp: pct((share(a) - share(b)) / 100) };
  };
  const keys = [...new Set([...before.keys(), ...after.keys()])].filter((k) => shown((after.get(k) ?? before.get(k))!));
  const moved = (k: string) => (share(after.get(k)) - share(before.get(k))) * 1e6;
  const [lb, la] = [largest(before), largest(after)];
  return {
    fromYear,
    toYear,
    entered: keys.filter((k) => !before.has(k)).map(row),
    left: keys.filter((k) => !after.has(k)).map(row),
    rose: keys.filter((k) => before.has(k) && after.has(k) && moved(k) >= CHANGE_PP * 1e6 - 1).map(row),
    fell: keys.filter((k) => before.has(k) && after.has(k) && -moved(k) >= CHANGE_PP * 1e6 - 1).map(row),
    largestOwner: {
      before: lb ? { ...owner(lb), pct: share(lb) } : null,
      after: la ? { ...owner(la), pct: share(la) } : null,
      changed: (lb ? ownerKey(lb) : null) !== (la ? ownerKey(la) : null),
    },
  };
}

/** True when nothing is listed and the largest owner is the same. */
export const isEmptyChange = (c: OwnershipChange) =>
  !c.entered.length && !c.left.length && !c.rose.length && !c.fell.length && !c.largestOwner.changed;

const FIELDS = ['entered', 'left', 'rose', 'fell'] as const;

/** An owner as one text, as the event carries it: name (a hidden person unnamed), number or country, share. */
function ownerText(o: OwnerView, share: number): string {
  const name = o.name ?? (o.kind === 'person' ? 'a natural person' : '?');
  const id = o.orgNumber ? ` (${o.orgNumber})` : o.kind === 'foreign' && o.country ? ` (${o.country})` : '';
  return `${name}${id}: ${share} %`;
}

/**
 * The `ownership` event of one company for one change (null when nothing changed): the lists
 * of the change as fields, each owner as one text with its share in fromYear (before) and in
 * toYear (after), the largest owner when it changed, and the two years. Built from the change
 * with persons hidden, so no person is named, let alone given a birth year.
 */
export function ownershipChangeEvent(orgNumber: string, c: OwnershipChange, source: string): NewEvent | null {
  if (isEmptyChange(c)) return null;
  const lists = FIELDS.filter((f) => c[f].length);
  const side = (when: 'pctBefore' | 'pctAfter'): FieldValues => ({
    year: when === 'pctBefore' ? c.fromYear : c.toYear,
    ...Object.fromEntries(lists.map((f) => [f, c[f].map((o) => ownerText(o, o[when]))])),
    ...(c.largestOwner.changed
      ? {
          largestOwner: (() => {
            const l = when === 'pctBefore' ? c.largestOwner.before : c.largestOwner.after;
            return l ? ownerText(l, l.pct) : null;
          })(),
        }
      : {}),
  });
  return {
    country: 'NO',
    orgNumber,
    category: 'ownership',
    type: 'owners_changed',
    fieldsChanged: ['year', ...lists, ...(c.largestOwner.changed ? ['largestOwner'] : [])],
    before: side('pctBefore'),
    after: side('pctAfter'),
    source,
  };
}
