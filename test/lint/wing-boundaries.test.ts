// The import boundaries of DESIGN.md's wings are lint rules (eslint.config.js). These cases lint
// probe texts as if they stood at a path in src/, so a rule that stops matching fails here.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('wing boundaries', () => {
  it('refuses an import from a store wing into runtime/ or http/', async () => {
    expect(await restricted('src/store/events/probe.ts', "import '../../runtime/context.ts';\n")).not.toEqual([]);
    expect(await restricted('src/store/engine/probe.ts', "import '../../http/types.ts';\n")).not.toEqual([]);
    expect(await restricted('src/store/probe.ts', "import '../runtime/services.ts';\n")).not.toEqual([]);
  });

  it('keeps engine/ the floor of the store, and the wings apart', async () => {
    expect(await restricted('src/store/engine/probe.ts', "import '../events/event-log.ts';\n")).not.toEqual([]);
    expect(await restricted('src/store/engine/probe.ts', "import '../company-reads.ts';\n")).not.toEqual([]);
    expect(await restricted('src/store/access/probe.ts', "import '../ops/sync-runs.ts';\n")).not.toEqual([]);
    expect(await restricted('src/store/events/probe.ts', "import '../engine/db-type.ts';\n")).toEqual([]);
    expect(await restricted('src/store/probe.ts', "import './events/event-log.ts';\n")).toEqual([]);
  });

  it('keeps jobs and services below the runtime, and the runtime below http', async () => {
    expect(await restricted('src/jobs/probe.ts', "import '../runtime/context.ts';\n")).not.toEqual([]);
    expect(await restricted('src/services/companies/probe.ts', "import '../../runtime/services.ts';\n")).toHaveLength(
      1,
    );
    expect(await restricted('src/runtime/probe.ts', "import '../http/types.ts';\n")).not.toEqual([]);
    expect(await restricted('src/services/support/probe.ts', "import '../companies/companies.ts';\n")).not.toEqual([]);
  });

  it('keeps zod out of the MCP tools: their inputs are the contract schemas', async () => {
    expect(await restricted('src/mcp/probe-tools.ts', "import * as z from 'zod';\n")).not.toEqual([]);
  });
});
