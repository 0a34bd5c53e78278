// The PDF of an evidence pack, for people: a first page with the subject and the verdict lines
// (registry status, screening hits, owners), then the details part by part, and the pack's
// hash and signature in the footer of every page. Rendered from the stored pack (the signed
// JSON is the evidence; the PDF is its reading copy) with pdfkit's built-in Helvetica, whose
// encoding (WinAnsi) covers the Nordic letters; other scripts are transliterated for print.
import anyAscii from 'any-ascii';
import PDFDocument from 'pdfkit';

type Doc = InstanceType<typeof PDFDocument>;

// WinAnsi printable range (Latin-1 and the usual punctuation); anything else is transliterated.
const PRINTABLE = /[^\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u20ac]/g;
const printable = (s: unknown): string => String(s ?? '').replace(PRINTABLE, (c) => anyAscii(c) || '?');

interface Pack {
  id: string;
  createdAt: string;
  subject: { orgNumber: string; country: string; name: string };
  purpose: string | null;
  reference: string | null;
  requester: { keyPrefix: string; project: string; via: string };
  software: { name: string; version: string };
  verdict: { registryStatus: string; screening: string; owners: string };
  parts: Record<
    string,
    { source: string; url: string | null; retrievedAt: string | null; data: unknown; note?: string }
  >;
  sources: { part: string; source: string; url: string | null; retrievedAt: string | null }[];
  retention: { until: string };
  hash: { alg: string; value: string };
  signature: { alg: string; kid: string; value: string };
}

const MARGIN = 48;
const FOOTER = 40;

function heading(doc: Doc, text: string) {
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(12).fillColor('#000').text(printable(text)).moveDown(0.2);
}

function line(doc: Doc, label: string, value: unknown) {
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .text(`${printable(label)}: `, { continued: true });
  doc.font('Helvetica').text(printable(value));
}

function small(doc: Doc, text: string) {
  doc.font('Helvetica').fontSize(8).fillColor('#333').text(printable(text)).fillColor('#000');
}

function partHeader(doc: Doc, title: string, p: Pack['parts'][string] | undefined) {
  heading(doc, title);
  if (!p) return;
  small(doc, `Source: ${p.source} - retrieved ${p.retrievedAt ?? 'unknown'}${p.url ? ` - ${p.url}` : ''}`);
  if (p.note) small(doc, p.note);
  doc.moveDown(0.2);
}

type Role = {
  roleTypeCode: string;
  roleTypeDescription: string | null;
  personFirstName: string | null;
  personLastName: string | null;
  personBirthYear: number | null;
  entityName: string | null;
  entityOrgNumber: string | null;
};
type Candidate = {
  name: string | null;
  kind: string;
  effectivePct: number | null;
  effectivePctRange?: { low: number; high: number };
  controls?: boolean;
  stopReason?: string;
  birthYear?: number | null;
};
type Match = { subject: string; entityName: string; list: string; score: number; matchType: string; topics: string[] };
type Holder = {
  shareholderName: string;
  shareholderType: string;
  ownershipPct: number | null;
  shareholderBirthYear?: number | null;
};

function details(doc: Doc, pack: Pack) {
  const p = pack.parts;
  partHeader(doc, 'Sources', undefined);
  for (const s of pack.sources)
    small(doc, `${s.part}: ${s.source}, retrieved ${s.retrievedAt ?? 'unknown'}${s.url ? `, ${s.url}` : ''}`);

  partHeader(doc, 'Roles', p.roles);
  for (const r of (p.roles?.data as Role[] | null) ?? []) {
    const who = r.entityName
      ? `${r.entityName}${r.entityOrgNumber ? ` (${r.entityOrgNumber})` : ''}`
      : `${r.personFirstName ?? ''} ${r.personLastName ?? ''}`.trim();
    small(
      doc,
      `${r.roleTypeDescription ?? r.roleTypeCode}: ${who}${r.personBirthYear ? `, born ${r.personBirthYear}` : ''}`,
    );
  }

  partHeader(doc, 'Ultimate-owner candidates', p.ultimateOwners);
  for (const c of (p.ultimateOwners?.data as { candidates?: Candidate[] } | null)?.candidates ?? []) {
    const share =
      c.effectivePct !== null
        ? `${c.effectivePct} %`
        : c.effectivePctRange
          ? `${c.effectivePctRange.low}-${c.effectivePctRange.high} %`
          : 'share unknown';
    small(
      doc,
      `${c.name ?? 'unnamed'} (${c.kind}${c.birthYear ? `, born ${c.birthYear}` : ''}): ${share}${c.controls ? ', controls' : ''}${c.stopReason ? `, stop: ${c.stopReason}` : ''}`,
    );
  }

  partHeader(doc, 'Shareholders', p.shareholders);
  const holders = ((p.shareholders?.data as { data?: Holder[] } | null)?.data ?? []).slice(0, 40);
  for (const h of holders)
    small(
      doc,
      `${h.shareholderName} (${h.shareholderType}${h.shareholderBirthYear ? `, born ${h.shareholderBirthYear}` : ''}): ${h.ownershipPct ?? '?'} %`,
    );

  partHeader(doc, 'Group', p.group);
  const group = p.group?.data as { totalMembers?: number; root?: { name?: string; orgNumber?: string } } | null;
  if (group?.root)
    small(doc, `Root ${group.root.name ?? ''} ${group.root.orgNumber ?? ''}; ${group.totalMembers ?? 1} member(s)`);

  partHeader(doc, 'Screening', p.screening);
  const scr = p.screening?.data as {
    lists: { name: string; version: string | null; lastSync: string }[];
    matches: Match[];
    subjects: { id: string; name: string }[];
    threshold: number;
  };
  for (const l of scr?.lists ?? [])
    small(doc, `List ${l.name}, version ${l.version ?? 'unknown'}, last sync ${l.lastSync}`);
  small(doc, `Threshold ${scr?.threshold}; ${scr?.subjects.length ?? 0} subjects screened`);
  const names = new Map((scr?.subjects ?? []).map((s) => [s.id, s.name]));
  for (const m of scr?.matches ?? [])
    small(
      doc,
      `${names.get(m.subject) ?? m.subject} ~ ${m.entityName}: ${m.list}, score ${m.score.toFixed(3)}, ${m.matchType}, ${m.topics.join(', ')}`,
    );

  partHeader(doc, 'Registry status', p.registryStatus);
  small(doc, JSON.stringify(p.registryStatus?.data ?? null));
}

function footers(doc: Doc, pack: Pack) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing inside the margin must not open a page
    const y = doc.page.height - FOOTER + 4;
    const width = doc.page.width - 2 * MARGIN;
    doc.font('Helvetica').fontSize(6.5).fillColor('#444');
    doc.text(`Pack ${pack.id} - page ${i + 1} of ${range.count} - SHA-256 ${pack.hash.value}`, MARGIN, y, {
      width,
      lineBreak: false,
    });
    doc.text(`Ed25519 signature (kid ${pack.signature.kid}): ${pack.signature.value}`, MARGIN, y + 9, {
      width,
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/** The pack as a PDF (A4). */
export function renderPackPdf(pack: Pack): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER },
    bufferPages: true,
    info: { Title: `KYB evidence pack ${pack.id}`, Producer: `${pack.software.name} ${pack.software.version}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text('KYB evidence pack');
  doc.moveDown(0.3).font('Helvetica-Bold').fontSize(14).text(printable(pack.subject.name));
  doc.moveDown(0.3);
  line(doc, 'Organisation number', `${pack.subject.orgNumber} (${pack.subject.country})`);
  line(doc, 'Created', pack.createdAt);
  line(
    doc,
    'Requested by',
    `key ${pack.requester.keyPrefix}, project ${pack.requester.project}, via ${pack.requester.via}`,
  );
  if (pack.reference) line(doc, 'Reference', pack.reference);
  if (pack.purpose) line(doc, 'Purpose', pack.purpose);
  line(doc, 'Software', `${pack.software.name} ${pack.software.version}`);
  line(doc, 'Kept until', pack.retention.until);

  heading(doc, 'Verdict');
  line(doc, 'Registry status', pack.verdict.registryStatus);
  doc.moveDown(0.2);
  line(doc, 'Screening', pack.verdict.screening);
  doc.moveDown(0.2);
  line(doc, 'Owners', pack.verdict.owners);
  doc.moveDown(0.6);
  small(
    doc,
    'This PDF is a reading copy. The evidence is the signed JSON pack (GET /api/evidence/{id}); verify it with `ncd evidence verify FILE`.',
  );
  line(doc, 'SHA-256', pack.hash.value);

  doc.addPage();
  details(doc, pack);
  footers(doc, pack);
  doc.end();
  return done;
}

export type RenderablePack = Pack;
