// PEP/sanctions list parsers: every format streams to the domain's SanctionEntity.
export { SanctionsParseError, partialBirthDate } from './common.ts';
export { detectSanctionsFormat, type SanctionsFormat } from './detect.ts';
export { fromFtm, parseFtmDelta, parseFtmEntities, type FtmDeltaRecord } from './ftm.ts';
export { parseTargetsSimpleCsv, type TargetsCsvOptions } from './targets-csv.ts';
export { EU_FSF_NAMESPACE, parseEuFsfXml } from './eu-fsf.ts';
export { parseUnConsolidatedXml } from './un-consolidated.ts';
export type { SanctionEntity } from '../../domain/screening/types.ts';
