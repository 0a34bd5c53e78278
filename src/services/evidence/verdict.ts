// The verdict lines of a pack: one sentence each on the registry status, the screening hits
// and the owners, for the PDF's first page, the list of packs and the MCP tool's summary.
import type { Part } from './pack-parts.ts';

export interface Verdict {
  registryStatus: string;
  screening: string;
  owners: string;
  possibleMatches: number;
  ownerCandidates: number;
}

interface StatusData {
  status: string | null;
  isBankrupt: boolean;
  isBeingDissolved: boolean;
  isInForcedDissolution: boolean;
  isInDebtNegotiation: boolean;
  isDeleted: boolean;
  deletedDate: string | null;
}

function statusLine(p: Part): string {
  const d = p.data as StatusData | null;
  const how = p.note?.startsWith('Fetched live')
    ? `live from the registry at ${p.retrievedAt}`
    : `store copy of ${p.retrievedAt ?? 'unknown date'}`;
  if (!d) return `Not found in the registry (${how})`;
  const flags = [
    d.isDeleted ? `deleted${d.deletedDate ? ` ${d.deletedDate}` : ''}` : null,
    d.isBankrupt ? 'bankrupt' : null,
    d.isInForcedDissolution ? 'in forced dissolution' : d.isBeingDissolved ? 'being dissolved' : null,
    d.isInDebtNegotiation ? 'in debt negotiation' : null,
  ].filter(Boolean);
  return `${flags.length ? flags.join(', ') : 'Active, no bankruptcy or dissolution'}${d.status ? ` (status ${d.status})` : ''} — ${how}`;
}

export function verdictOf(parts: Record<string, Part>): Verdict {
  const screening = parts.screening.data as {
    matches: { subject: string; entityName: string; list: string; score: number }[];
    subjects: { id: string; name: string }[];
    lists: { name: string; version: string | null }[];
  };
  const names = new Map(screening.subjects.map((s) => [s.id, s.name]));
  const hits = screening.matches;
  const lists = screening.lists.map((l) => `${l.name}${l.version ? ` ${l.version}` : ''}`).join(', ');
  const screeningLine = !screening.lists.length
    ? 'Not screened: no PEP or sanctions list is loaded'
    : hits.length
      ? `${hits.length} possible match${hits.length === 1 ? '' : 'es'} to review: ` +
        hits
          .slice(0, 3)
          .map((m) => `${names.get(m.subject) ?? m.subject} ~ ${m.entityName} (${m.list}, ${m.score.toFixed(2)})`)
          .join('; ') +
        (hits.length > 3 ? '; …' : '') +
        ` — lists ${lists}`
      : `No possible match among ${screening.subjects.length} subjects — lists ${lists}`;

  const owners = parts.ultimateOwners.data as {
    candidates: {
      name: string | null;
      effectivePct: number | null;
      effectivePctRange?: { low: number; high: number };
    }[];
  } | null;
  const candidates = owners?.candidates ?? [];
  const ownersLine = !owners
    ? (parts.ultimateOwners.note ?? 'No owner data')
    : candidates.length
      ? `${candidates.length} ultimate-owner candidate${candidates.length === 1 ? '' : 's'}: ` +
        candidates
          .slice(0, 3)
          .map((c) =>
            `${c.name ?? 'unnamed'} ${c.effectivePct !== null ? `${c.effectivePct} %` : c.effectivePctRange ? `${c.effectivePctRange.low}–${c.effectivePctRange.high} %` : ''}`.trim(),
          )
          .join('; ') +
        (candidates.length > 3 ? '; …' : '')
      : 'No ultimate-owner candidate at or above the threshold in the shareholder register';
  return {
    registryStatus: statusLine(parts.registryStatus),
    screening: screeningLine,
    owners: ownersLine,
    possibleMatches: hits.length,
    ownerCandidates: candidates.length,
  };
}
