// One pass over a page's HTML collecting what the web-profile steps read: title, visible
// text, link targets, script sources and inline scripts, JSON-LD and meta tags. A tolerant
// tokenizer (htmlparser2) rather than regexes: real pages are rarely well-formed.
import { Parser } from 'htmlparser2';

export interface PageScan {
  title: string | null;
  /** Visible text (no script/style), whitespace collapsed. */
  text: string;
  /** href of <a>/<area>, as written (resolve against the page URL yourself). */
  links: string[];
  scriptSrcs: string[];
  /** src of <iframe> and <img> (tracking pixels and tag-manager fallbacks live here). */
  embedSrcs: string[];
  /** Inline JavaScript, concatenated. */
  inlineScript: string;
  /** Bodies of <script type="application/ld+json">. */
  jsonLd: string[];
  /** <meta> by `name` or `property` (lower-case) → content. First one wins. */
  meta: Record<string, string>;
}

const MAX_TEXT = 300_000;
const MAX_SCRIPT = 1_000_000;

export function scanHtml(html: string): PageScan {
  const scan: PageScan = {
    title: null,
    text: '',
    links: [],
    scriptSrcs: [],
    embedSrcs: [],
    inlineScript: '',
    jsonLd: [],
    meta: {},
  };
  const text: string[] = [];
  let textLen = 0;
  let titleBuf: string[] | null = null;
  let mode: 'none' | 'js' | 'ld' | 'skip' = 'none';
  let scriptBuf: string[] = [];

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        switch (name) {
          case 'a':
          case 'area':
            if (attrs.href) scan.links.push(attrs.href.trim());
            break;
          case 'script': {
            if (attrs.src) scan.scriptSrcs.push(attrs.src.trim());
            const type = (attrs.type ?? '').toLowerCase().trim();
            mode =
              type === 'application/ld+json' ? 'ld' : type === '' || /javascript|module/.test(type) ? 'js' : 'skip';
            scriptBuf = [];
            break;
          }
          case 'style':
          case 'template':
            mode = 'skip';
            break;
          case 'iframe':
          case 'img':
            if (attrs.src) scan.embedSrcs.push(attrs.src.trim());
            break;
          case 'meta': {
            const key = (attrs.name ?? attrs.property ?? attrs['http-equiv'] ?? '').toLowerCase().trim();
            if (key && attrs.content !== undefined && !(key in scan.meta)) scan.meta[key] = attrs.content.trim();
            break;
          }
          case 'title':
            if (scan.title === null && titleBuf === null) titleBuf = [];
            break;
        }
        // Tags separate words: "<td>Org.nr</td><td>923…" must not glue together.
        if (textLen > 0) text.push(' ');
      },
      ontext(data) {
        if (mode === 'js' || mode === 'ld') {
          scriptBuf.push(data);
        } else if (mode === 'skip') {
          // ignore
        } else if (titleBuf) {
          titleBuf.push(data);
        } else if (textLen < MAX_TEXT) {
          text.push(data);
          textLen += data.length;
        }
      },
      onclosetag(name) {
        if (name === 'script') {
          const body = scriptBuf.join('');
          if (mode === 'ld') scan.jsonLd.push(body);
          else if (mode === 'js' && scan.inlineScript.length < MAX_SCRIPT) scan.inlineScript += `${body}\n`;
          mode = 'none';
          scriptBuf = [];
        } else if (name === 'style' || name === 'template') {
          mode = 'none';
        } else if (name === 'title' && titleBuf) {
          scan.title = collapse(titleBuf.join('')) || null;
          titleBuf = null;
        }
        text.push(' ');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  scan.text = collapse(text.join(''));
  return scan;
}

function collapse(s: string): string {
  return s.replace(/[\s\u00a0]+/g, ' ').trim();
}
