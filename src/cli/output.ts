// What a command prints on stdout: text as it is; a result as a table for a person at a terminal,
// or as indented JSON for scripts (--json, or stdout not a terminal: pipes and files keep JSON).
import { renderHuman } from './table.ts';

let json = false;

/** `--json` anywhere in argv asks for JSON even on a terminal; returns argv without it. */
export function takeJsonFlag(argv: string[]): string[] {
  json = argv.includes('--json');
  return argv.filter((a) => a !== '--json');
}

const wantsJson = () => json || !process.stdout.isTTY;

export const print = (o: unknown) =>
  console.log(typeof o === 'string' ? o : wantsJson() ? JSON.stringify(o, null, 2) : renderHuman(o));
