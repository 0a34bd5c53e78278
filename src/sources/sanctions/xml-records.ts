// Streams the repeated record elements of a large XML file as small element trees, using the
// saxes SAX parser: only the record being read is held in memory, never the document.
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { SanctionsParseError } from './common.ts';

export interface XmlElement {
  /** Local name (namespace prefix removed). */
  name: string;
  /** Attributes by local name. */
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text content directly inside this element. */
  text: string;
  /** 1-based line of the start tag. */
  line: number;
}

interface XmlRecordOptions {
  /** For error messages, e.g. "EU FSF XML". */
  source: string;
  /** Local name and namespace URI ('' for none) the root element must have. */
  root: { name: string; uri: string };
  /** Local names of the record elements to yield (at any depth below the root). */
  records: ReadonlySet<string>;
}

/** The first child with this local name. */
export const child = (el: XmlElement, name: string) => el.children.find((c) => c.name === name);
/** All children with this local name. */
export const childrenNamed = (el: XmlElement, name: string) => el.children.filter((c) => c.name === name);
/** Trimmed text of the first child with this local name ('' when absent). */
export const childText = (el: XmlElement, name: string) => (child(el, name)?.text ?? '').trim();

export async function* xmlRecords(input: Readable, options: XmlRecordOptions): AsyncGenerator<XmlElement> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const ready: XmlElement[] = [];
  const stack: XmlElement[] = [];
  let seenRoot = false;
  let failure: Error | null = null;

  parser.on('error', (err) => {
    // saxes reports "line:column: message"; keep the first error, stop feeding afterwards.
    failure ??= new SanctionsParseError(options.source, `malformed XML at ${err.message}`);
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (!seenRoot) {
      seenRoot = true;
      if (tag.local !== options.root.name || tag.uri !== options.root.uri) {
        const got = tag.uri ? `{${tag.uri}}${tag.local}` : tag.local;
        const want = options.root.uri ? `{${options.root.uri}}${options.root.name}` : options.root.name;
        failure ??= new SanctionsParseError(options.source, `root element is <${got}>, expected <${want}>`);
      }
      return;
    }
    if (stack.length === 0 && !options.records.has(tag.local)) return;
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes))
      if (a.prefix !== 'xmlns' && a.name !== 'xmlns') attrs[a.local] = a.value;
    const el: XmlElement = { name: tag.local, attrs, children: [], text: '', line: parser.line };
    stack.at(-1)?.children.push(el);
    stack.push(el);
  });
  const onText = (text: string) => {
    const top = stack.at(-1);
    if (top) top.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const el = stack.pop();
    if (el && stack.length === 0) ready.push(el);
  });

  const decoder = new StringDecoder('utf8');
  const feed = (chunk: string) => {
    if (!failure && chunk) parser.write(chunk);
  };
  try {
    for await (const chunk of input) {
      feed(typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
      if (failure) throw failure;
      while (ready.length > 0) yield ready.shift()!;
    }
    feed(decoder.end());
    if (!failure) parser.close();
    if (failure) throw failure;
    if (!seenRoot) throw new SanctionsParseError(options.source, 'no root element (empty file?)');
    while (ready.length > 0) yield ready.shift()!;
  } finally {
    if (!input.readableEnded) input.destroy();
  }
}
