// The typed operator command: what `ncd` hands to the code in commands.ts, on its own store or
// through a running server's operator endpoint. One object per command, named by `command`
// (the words of the CLI), with typed options; the CLI's argument parsing builds it.
import { Type, type Static, type TObject } from 'typebox';

const Text = Type.String({ minLength: 1, maxLength: 4096 });
/** A per-key limit: 0 = unlimited, null = back to the tier's value. */
const Limit = (maximum: number) => Type.Union([Type.Integer({ minimum: 0, maximum }), Type.Null()]);
const closed = { additionalProperties: false } as const;

const SyncCommand = Type.Object(
  {
    command: Type.Literal('sync'),
    source: Text,
    /** An absolute path (the CLI resolves it where it runs, not where the server does). */
    file: Type.Optional(Text),
    url: Type.Optional(Text),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100 })),
    list: Type.Optional(Text),
    country: Type.Optional(Text),
    since: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
  },
  closed,
);
const JobsCommand = Type.Object({ command: Type.Literal('jobs') }, closed);
const JobsRunCommand = Type.Object({ command: Type.Literal('jobs run'), name: Text }, closed);
const SetTierCommand = Type.Object({ command: Type.Literal('keys set-tier'), keyPrefix: Text, tier: Text }, closed);
const SetLimitsCommand = Type.Object(
  {
    command: Type.Literal('keys set-limits'),
    keyPrefix: Text,
    rpm: Type.Optional(Limit(1_000_000)),
    daily: Type.Optional(Limit(1_000_000_000)),
    monthly: Type.Optional(Limit(1_000_000_000)),
    /** null = back to the tier's value; a page size is never unlimited. */
    pageSize: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()])),
  },
  closed,
);

const ListKeysCommand = Type.Object(
  { command: Type.Literal('keys list'), project: Type.Optional(Text), all: Type.Optional(Type.Boolean()) },
  closed,
);
const DeactivateKeyCommand = Type.Object({ command: Type.Literal('keys deactivate'), keyPrefix: Text }, closed);

export const OperatorCommand = Type.Union([
  SyncCommand,
  JobsCommand,
  JobsRunCommand,
  SetTierCommand,
  SetLimitsCommand,
  ListKeysCommand,
  DeactivateKeyCommand,
]);
const COMMANDS: TObject[] = OperatorCommand.anyOf;
export type OperatorCommand = Static<typeof OperatorCommand>;
type CommandName = OperatorCommand['command'];

/**
 * The same union as one JSON Schema that checks only the branch its `command` names (if/then),
 * for the operator endpoint. A plain anyOf would try every branch, and the body validator, which
 * drops fields a closed object does not list, would strip a sync command's fields while trying
 * the `jobs` branch; its errors would also list every branch instead of the one meant.
 */
export const OperatorCommandBody = Type.Unsafe<OperatorCommand>(
  Type.Object(
    { command: Type.Unsafe<CommandName>({ type: 'string', enum: COMMANDS.map(nameOf) }) },
    {
      allOf: COMMANDS.map((branch) => ({
        if: { type: 'object', required: ['command'], properties: { command: { const: nameOf(branch) } } },
        then: branch,
      })),
    },
  ),
);

function nameOf(branch: TObject): string {
  return (branch.properties.command as unknown as { const: string }).const;
}
