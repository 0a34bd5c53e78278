// Stage 1 (candidates) for the whole register, not just this run's batch: no network, and it
// is what lets scoring count how many companies point at a domain. Only companies never
// seeded or changed since are read; a changed name, form, website or e-mail sends the
// company back to the first stage.
import { createHash } from 'node:crypto';
import { candidateDomains } from '../../domain/web-profile/index.ts';
import type { WebProfileRepository, SeedSource, SeedWrite } from '../../store/web-profile.ts';
import { listedCandidate } from './types.ts';

const BATCH = 1000;

function inputHash(s: Pick<SeedSource, 'name' | 'orgFormCode' | 'website' | 'email'>): string {
  return createHash('sha1')
    .update(JSON.stringify([s.name, s.orgFormCode, s.website, s.email]))
    .digest('hex');
}

function seedWrite(s: SeedSource, hash = inputHash(s)): SeedWrite {
  const cands = candidateDomains({ name: s.name, orgFormCode: s.orgFormCode, website: s.website, email: s.email });
  return {
    companyId: s.companyId,
    orgNumber: s.orgNumber,
    inputHash: hash,
    candidates: cands.map(listedCandidate),
    domains: cands.map((c) => ({ domain: c.domain, origin: c.origin })),
  };
}

/** Returns how many companies got (new) candidates. */
export async function seedCandidates(
  repo: WebProfileRepository,
  onBatch: (seen: number) => void = () => {},
): Promise<{ seeded: number; seen: number; pruned: number }> {
  const pruned = await repo.pruneGone();
  let after = 0;
  let seeded = 0;
  let seen = 0;
  for (;;) {
    const batch = await repo.seedSources(after, BATCH);
    if (!batch.length) break;
    const changed: SeedWrite[] = [];
    const unchanged: number[] = [];
    for (const s of batch) {
      const hash = inputHash(s);
      if (hash === s.inputHash) unchanged.push(s.companyId);
      else changed.push(seedWrite(s, hash));
    }
    await repo.saveSeeds(changed, unchanged);
    seeded += changed.length;
    seen += batch.length;
    after = batch[batch.length - 1].companyId;
    onBatch(seen);
  }
  return { seeded, seen, pruned };
}
