// The data sources a user of the data cares about (health's dataSources, the coverage table)
// and the sync jobs that feed each. Pure data: services, jobs and operator commands share it.

/**
 * Health's dataSources names and the jobs that feed each. Job names are what `ncd sync` takes;
 * a source is what a user of the data cares about (the full brreg load is three jobs).
 */
export const DATA_SOURCES: Record<string, readonly string[]> = {
  'brreg-updates': ['brreg-updates'],
  'brreg-snapshot': ['brreg', 'brreg-subunits', 'brreg-roles'],
  regnskap: ['regnskap'],
  shareholders: ['shareholders'],
  inspections: ['inspections'],
  licenses: ['licenses'],
  prh: ['prh', 'prh-updates'],
  bolagsverket: ['bolagsverket'],
  'prh-financials': ['prh-financials'],
  'bolagsverket-financials': ['bolagsverket-financials'],
  cvr: ['cvr', 'cvr-updates'],
  'cvr-financials': ['cvr-financials'],
  sanctions: ['sanctions'],
  domains: ['domains'],
  coverage: ['coverage'],
  // One source per statistics bureau: the `statistics` job records each bureau's run under these names.
  'statistics:NO': ['statistics:NO'],
  'statistics:SE': ['statistics:SE'],
  'statistics:FI': ['statistics:FI'],
  'statistics:DK': ['statistics:DK'],
  // The `procurement` job records each upstream's part as a run of its own.
  doffin: ['doffin'],
  ted: ['ted'],
};

/** The health source a job feeds, if any (`groups` is derived data, not a source). */
export function sourceOfJob(job: string): string | undefined {
  return Object.keys(DATA_SOURCES).find((s) => DATA_SOURCES[s].includes(job));
}
