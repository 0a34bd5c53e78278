// `ncd` arguments -> typed operator commands: the syntax of every command as README shows it,
// per-command help, and errors that name the argument at fault.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandHelp, parseCommand, UnknownCommandError, usage } from '../../src/cli/commands.ts';
import { UsageError } from '../../src/ops/usage-error.ts';

describe('parseCommand', () => {
  it('builds the typed command of every operator command', () => {
    expect(parseCommand(['sync', 'brreg'])).toEqual({ command: 'sync', source: 'brreg' });
    expect(parseCommand(['sync', 'shareholders', '--file', 'data/aksjer.csv', '--year=2024', '--limit', '10'])).toEqual(
      {
        command: 'sync',
        source: 'shareholders',
        file: path.resolve('data/aksjer.csv'),
        year: 2024,
        limit: 10,
      },
    );
    expect(parseCommand(['sync', 'sanctions', '--url', 'http://127.0.0.1:1/x.json', '--list', 'peps'])).toEqual({
      command: 'sync',
      source: 'sanctions',
      url: 'http://127.0.0.1:1/x.json',
      list: 'peps',
    });
    expect(parseCommand(['jobs'])).toEqual({ command: 'jobs' });
    expect(parseCommand(['keys', 'list'])).toEqual({ command: 'keys list' });
    expect(parseCommand(['keys', 'list', '--project', 'crm', '--all'])).toEqual({
      command: 'keys list',
      project: 'crm',
      all: true,
    });
    expect(parseCommand(['keys', 'deactivate', 'ncd_abc'])).toEqual({
      command: 'keys deactivate',
      keyPrefix: 'ncd_abc',
    });
    expect(parseCommand(['jobs', 'run', 'coverage'])).toEqual({ command: 'jobs run', name: 'coverage' });
    expect(parseCommand(['keys', 'set-tier', 'ncd_abc', 'pro'])).toEqual({
      command: 'keys set-tier',
      keyPrefix: 'ncd_abc',
      tier: 'pro',
    });
    expect(
      parseCommand([
        'keys',
        'set-limits',
        'ncd_abc',
        '--rpm',
        '7',
        '--daily',
        '0',
        '--monthly=default',
        '--page-size',
        '50',
      ]),
    ).toEqual({ command: 'keys set-limits', keyPrefix: 'ncd_abc', rpm: 7, daily: 0, monthly: null, pageSize: 50 });
    expect(parseCommand(['keys', 'set-limits', 'ncd_abc', '--page-size', 'default'])).toMatchObject({ pageSize: null });
  });

  it('leaves out the options not given, so the command changes nothing else', () => {
    const cmd = parseCommand(['keys', 'set-limits', 'ncd_abc', '--rpm', '5']);
    expect(JSON.parse(JSON.stringify(cmd))).toEqual({ command: 'keys set-limits', keyPrefix: 'ncd_abc', rpm: 5 });
  });

  it('answers --help / -h anywhere after the command with its help', () => {
    for (const argv of [
      ['sync', '--help'],
      ['sync', 'brreg', '-h'],
      ['jobs', 'run', '--help'],
      ['keys', '--help'],
    ])
      expect(parseCommand(argv)).toBe('help');
    expect(commandHelp(['keys', 'set-limits'], [])).toContain('--page-size N');
    expect(commandHelp(['sync'], ['brreg', 'prh'])).toContain('sources: brreg, prh');
    expect(commandHelp(['keys'], [])).toContain('ncd keys set-tier <keyPrefix> <tier>');
    expect(commandHelp(['jobs'], [])).toContain('Usage: ncd jobs');
    expect(commandHelp(['serve'], [])).toContain('Usage: ncd serve');
    expect(commandHelp([], [])).toBeUndefined();
    expect(usage(['brreg', 'prh'])).toContain('sources: brreg, prh');
  });

  const fails = (argv: string[], message: string | RegExp) =>
    expect(() => parseCommand(argv), argv.join(' ')).toThrow(
      expect.objectContaining({ message: expect.stringMatching(message) }),
    );

  it('names the argument at fault', () => {
    fails(['sync', 'brreg', '--bogus'], /^Unknown option --bogus$/);
    fails(['sync', 'brreg', '-x'], /^Unknown option -x$/);
    fails(['sync', 'brreg', '--limit'], /^--limit needs a value$/);
    fails(['keys', 'set-limits', 'p', '--rpm', '-1'], /^--rpm needs a value \(write --rpm=VALUE/);
    fails(['sync', 'brreg', '--limit', 'x'], /^--limit must be an integer from 1 to 100000000$/);
    fails(['sync', 'brreg', '--year', '1999'], /^--year must be an integer from 2000 to 2100$/);
    fails(['keys', 'set-limits', 'p', '--rpm=-1'], /^--rpm must be an integer from 0 to 1000000$/);
    fails(['keys', 'set-limits', 'p', '--page-size', '0'], /^--page-size must be an integer from 1 to 100$/);
    fails(['sync'], /^sync takes a source$/);
    fails(['sync', 'brreg', 'extra'], /^Unexpected argument extra$/);
    fails(['jobs', 'x'], /^Unexpected argument x$/);
    fails(['jobs', 'run'], /^jobs run takes <name>$/);
    fails(['keys', 'set-tier', 'ncd_abc'], /^keys set-tier takes <keyPrefix> <tier>$/);
    fails(['keys', 'set-limits'], /^keys set-limits takes <keyPrefix> and options$/);
    fails(['keys'], /^Usage: ncd keys <command>/);
  });

  it('tells an unknown command apart, by the words given', () => {
    expect(() => parseCommand(['frobnicate'])).toThrow(UnknownCommandError);
    expect(() => parseCommand(['keys', 'rotate'])).toThrow('Unknown command "keys rotate"');
    expect(() => parseCommand(['sync', 'brreg', '--bogus'])).toThrow(UsageError);
    expect(() => parseCommand(['sync', 'brreg', '--bogus'])).not.toThrow(UnknownCommandError);
  });
});
