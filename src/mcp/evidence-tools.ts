// create_evidence_pack: builds, signs and stores a KYB evidence pack (POST
// /api/companies/{orgNumber}/evidence) and returns its id, hash and verdict lines; the pack itself
// is fetched over REST (GET /api/evidence/{id}, or .pdf).
import { Type } from 'typebox';
import type { Country as CountryCode } from '../domain/org-number.ts';
import { EvidenceCreateBody, EvidenceCreated } from '../contract/evidence.ts';
import { Country, Described, OrgNumber, runTool, success, type ToolGroup } from './tool-kit.ts';

const { purpose, reference } = EvidenceCreateBody.properties;

const CreateInput = Type.Object({
  orgNumber: OrgNumber,
  country: Country,
  purpose: Described(purpose, 'Why the review is made, e.g. "onboarding"'),
  reference: Described(reference, "The analyst's case number"),
});

export const evidenceTools: ToolGroup = (server, { services, log, caller }) => {
  server.registerTool(
    'create_evidence_pack',
    {
      title: 'Create a signed KYB evidence pack',
      description:
        'Gathers everything a know-your-business review relies on about one company (record, roles, shareholders, ultimate-owner ' +
        'candidates, group tree, PEP/sanctions screening with list versions, registry status), each with source and retrieval time, ' +
        'into one pack signed with Ed25519, stored and kept for the retention period. Returns the id, SHA-256 hash and the verdict ' +
        'lines; the pack is at GET /api/evidence/{id} (PDF: {id}.pdf). Free keys may create 10 packs a day.',
      inputSchema: CreateInput,
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    ({ orgNumber, country, purpose, reference }) =>
      runTool(log, 'create_evidence_pack', async () => {
        const made = await services.evidence.create(caller, 'mcp', orgNumber, {
          country: country as CountryCode,
          purpose,
          reference,
        });
        const s = made.summary;
        return success(EvidenceCreated, {
          id: s.id,
          createdAt: s.createdAt,
          hash: s.hash,
          kid: s.kid,
          verdict: s.verdict,
          url: `/api/evidence/${s.id}`,
        });
      }),
  );
};
