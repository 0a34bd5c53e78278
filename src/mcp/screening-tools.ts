// screen_company: PEP and sanctions screening of a company, its roles and owners
// (GET /api/screening/{orgNumber}).
import * as z from 'zod';
import type { Country as CountryCode } from '../domain/org-number.ts';
import { THRESHOLD_BOUNDS } from '../domain/screening/rank.ts';
import { ScreeningResult } from '../contract/screening.ts';
import { Country, OrgNumber, runTool, success, type ToolGroup } from './tool-kit.ts';

export const screeningTools: ToolGroup = (server, { services, log }) => {
  server.registerTool(
    'screen_company',
    {
      title: 'PEP and sanctions screening',
      description:
        'Screens the company name, its active roles and the holders of its latest shareholder year against the loaded PEP and sanctions ' +
        'lists. Every match is a possible match with a score in [0, 1] for a person to review. The company must be in the store ' +
        '(call lookup_company first).',
      inputSchema: {
        orgNumber: OrgNumber,
        country: Country,
        threshold: z
          .number()
          .min(THRESHOLD_BOUNDS.min)
          .max(THRESHOLD_BOUNDS.max)
          .optional()
          .describe('Lowest score reported'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ orgNumber, country, threshold }) =>
      runTool(log, 'screen_company', async () =>
        success(ScreeningResult, await services.screening.screen(country as CountryCode, orgNumber, { threshold })),
      ),
  );
};
