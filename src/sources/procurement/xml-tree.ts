// One eForms notice as a small element tree, built by the saxes streaming parser as the text
// arrives (a notice is tens of kilobytes; the tree keeps only local names, attributes and text).
// Namespaces are resolved by saxes, so `cbc:ID` and `ID` with another prefix bound to the
// same URI are the same element; elements are matched by local name along eForms paths.
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagNS } from 'saxes';

export interface Node {
  /** Local name, prefix removed. */
  name: string;
  attrs: Record<string, string>;
  kids: Node[];
  text: string;
}

class NoticeXmlError extends Error {}

/**
 * Deepest element nesting read. An eForms notice nests about 15 levels; a hostile document of
 * 200,000 levels made the parse quadratic (namespace resolution walks the open elements), so a
 * document deeper than this is refused at the element that crosses it, mid-chunk.
 */
export const MAX_XML_DEPTH = 100;

/** Parses one XML document into its root node; throws NoticeXmlError on malformed XML. */
export async function readTree(input: AsyncIterable<Buffer | string>): Promise<Node> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const open: Node[] = [];
  let root: Node | undefined;
  let failure: string | undefined;
  parser.on('error', (err) => {
    failure ??= err.message;
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    // Thrown out of parser.write, so the rest of the chunk is never parsed.
    if (open.length >= MAX_XML_DEPTH)
      throw new NoticeXmlError(`malformed XML: elements nested deeper than ${MAX_XML_DEPTH}`);
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes))
      if (a.prefix !== 'xmlns' && a.name !== 'xmlns') attrs[a.local] = a.value;
    const node: Node = { name: tag.local, attrs, kids: [], text: '' };
    if (open.length) open[open.length - 1].kids.push(node);
    else root ??= node;
    open.push(node);
  });
  const addText = (t: string) => {
    if (open.length) open[open.length - 1].text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => void open.pop());

  const decoder = new StringDecoder('utf8');
  for await (const chunk of input) {
    if (failure) break;
    parser.write(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  }
  if (!failure) {
    parser.write(decoder.end());
    if (!failure) parser.close();
  }
  if (failure) throw new NoticeXmlError(`malformed XML: ${failure}`);
  if (!root) throw new NoticeXmlError('no root element');
  return root;
}

/** Children named `name`. */
export const kids = (n: Node | undefined, name: string): Node[] => (n ? n.kids.filter((k) => k.name === name) : []);

/** The first node at a path of local names below `n`. */
export function at(n: Node | undefined, ...path: string[]): Node | undefined {
  let cur = n;
  for (const name of path) {
    cur = cur?.kids.find((k) => k.name === name);
    if (!cur) return undefined;
  }
  return cur;
}

/** Every node at a path of local names below `n` (each step may repeat). */
export function all(n: Node | undefined, ...path: string[]): Node[] {
  let level: Node[] = n ? [n] : [];
  for (const name of path) level = level.flatMap((x) => kids(x, name));
  return level;
}

/** Trimmed text at a path, or null when absent or empty. */
export function text(n: Node | undefined, ...path: string[]): string | null {
  const t = at(n, ...path)?.text.trim();
  return t ? t : null;
}
