// Reads README.md into its example blocks and the commands in them, for the test that runs every
// example as written (test/long/readme-examples.test.ts).

/** One fenced block of README.md. */
export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
}

/** One command of a shell block, with the answer the README shows for it (`# -> NNN {…}`). */
export interface ReadmeCommand {
  block: ReadmeBlock;
  /** 1-based line where the command starts. */
  line: number;
  /** The command as written, continuation lines joined, its trailing comment removed. */
  command: string;
  /** The trailing comment, which often says what the command does or answers. */
  comment: string;
  expectedStatus?: number;
  /** The `{…}` the README shows after the status, when it shows one. */
  expectedBody?: string;
}

export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    while (++i < lines.length && !/^```\s*$/.test(lines[i]));
    blocks.push({ line: start + 1, lang: open[1], text: lines.slice(start + 1, i).join('\n') });
  }
  return blocks;
}

/** The trailing ` # comment` of a shell line, outside quotes. */
function splitComment(line: string): [string, string] {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1])))
      return [line.slice(0, i).trimEnd(), line.slice(i + 1).trim()];
  }
  return [line.trimEnd(), ''];
}

const quotesOpen = (s: string) => (s.match(/'/g) ?? []).length % 2 === 1;
/** A command goes on to the next line after a `\\`, or inside a quoted body. */
function continues(text: string): boolean {
  const [command] = splitComment(text);
  return command.endsWith('\\') || quotesOpen(command);
}

/**
 * The commands of a shell block. Lines that are only a comment show output or an alternative in
 * words; they belong to the command before them (a `# -> NNN {…}` there is its answer, and may
 * go on over further comment lines).
 */
export function shellCommands(block: ReadmeBlock): ReadmeCommand[] {
  const lines = block.text.split('\n');
  const commands: ReadmeCommand[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim() || /^\s*#/.test(lines[i])) continue;
    const line = block.line + 1 + i;
    let text = lines[i];
    // Continuation lines, and a quoted JSON body that goes on over lines.
    while (continues(text) && i + 1 < lines.length) text += `\n${lines[++i]}`;
    const [command, comment] = splitComment(text);
    let answer = /^->\s*(\d{3})\s*(.*)$/.exec(comment);
    let body = answer?.[2] ?? '';
    const next = /^\s*#\s*->\s*(\d{3})\s*(.*)$/.exec(lines[i + 1] ?? '');
    if (!answer && next) {
      answer = next;
      body = next[2];
      i++;
      // The shown answer goes on over the comment lines indented under it.
      while (/^\s*#\s{2,}\S/.test(lines[i + 1] ?? '')) body += lines[++i].replace(/^\s*#\s*/, '');
    }
    commands.push({
      block,
      line,
      command,
      comment,
      expectedStatus: answer ? Number(answer[1]) : undefined,
      expectedBody: body.startsWith('{') ? body : undefined,
    });
  }
  return commands;
}

/**
 * The literal fields an answer the README shows (`{"name":"crm","delivered":2,…}`) promises:
 * strings without an ellipsis, numbers, booleans and empty arrays. `…` marks what varies.
 */
export function literalFields(shown: string): [string, unknown][] {
  const fields: [string, unknown][] = [];
  for (const m of shown.matchAll(/"(\w+)":\s*("[^"]*"|-?\d+(?:\.\d+)?|true|false|\[\])/g)) {
    if (m[2].includes('…')) continue;
    fields.push([m[1], JSON.parse(m[2])]);
  }
  return fields;
}

/** Whether `value` holds `key` with `expected` anywhere in it. */
export function holdsField(value: unknown, key: string, expected: unknown): boolean {
  if (Array.isArray(value)) return value.some((v) => holdsField(v, key, expected));
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  if (key in record && JSON.stringify(record[key]) === JSON.stringify(expected)) return true;
  return Object.values(record).some((v) => holdsField(v, key, expected));
}
