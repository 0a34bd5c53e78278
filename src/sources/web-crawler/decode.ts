// Bytes of a homepage to text. Norwegian sites still serve windows-1252/ISO-8859-1 now and
// then, which decoded as UTF-8 would turn "Tromsø" into "Troms\uFFFD" and break name matching.

/** Whether a Content-Type is a web page (a missing one is given the benefit of the doubt). */
export function isHtmlType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  return /^\s*(?:text\/html|application\/xhtml\+xml|text\/plain)\b/i.test(contentType);
}

function charsetOf(contentType: string | undefined, head: string): string | null {
  const fromHeader = contentType?.match(/charset\s*=\s*["']?([\w.:-]+)/i)?.[1];
  if (fromHeader) return fromHeader;
  // <meta charset="…"> or <meta http-equiv="Content-Type" content="text/html; charset=…">
  return head.match(/<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i)?.[1] ?? null;
}

export function decodeHtml(body: Uint8Array, contentType: string | undefined): string {
  // The first KiB as Latin-1 is enough to read a <meta charset> (ASCII in every charset we accept).
  const head = new TextDecoder('latin1').decode(body.subarray(0, 1024));
  const label = charsetOf(contentType, head);
  if (label) {
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      // Unknown label: fall through to UTF-8.
    }
  }
  return new TextDecoder('utf-8').decode(body);
}
