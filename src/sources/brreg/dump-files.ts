// Writes generated companies as brreg bulk files (gzipped JSON arrays): the enheter and
// underenheter dumps, the roles totalbestand and an accounts file. Used for the demo dataset
// and for tests and benchmarks, so they exercise the same ingest path as a real sync.
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';
import { generateCompanies } from './generate.ts';

class JsonArrayFile {
  private gzip: Gzip;
  private done: Promise<unknown>;
  private first = true;
  constructor(file: string) {
    this.gzip = createGzip({ level: 1 });
    const out = createWriteStream(file);
    this.gzip.pipe(out);
    this.done = once(out, 'finish');
    this.gzip.write('[');
  }
  async add(value: unknown) {
    const ok = this.gzip.write((this.first ? '' : ',\n') + JSON.stringify(value));
    this.first = false;
    if (!ok) await once(this.gzip, 'drain');
  }
  async close() {
    this.gzip.end(']');
    await this.done;
  }
}

export interface DumpFiles {
  enheter: string;
  underenheter: string;
  roller: string;
  regnskap: string;
}

export async function writeDumpFiles(dir: string, count: number, seed = 1, start = 0): Promise<DumpFiles> {
  await mkdir(dir, { recursive: true });
  const files: DumpFiles = {
    enheter: path.join(dir, 'enheter.json.gz'),
    underenheter: path.join(dir, 'underenheter.json.gz'),
    roller: path.join(dir, 'roller-totalbestand.json.gz'),
    regnskap: path.join(dir, 'regnskap.json.gz'),
  };
  const out = {
    enheter: new JsonArrayFile(files.enheter),
    underenheter: new JsonArrayFile(files.underenheter),
    roller: new JsonArrayFile(files.roller),
    regnskap: new JsonArrayFile(files.regnskap),
  };
  for (const c of generateCompanies(count, seed, start)) {
    // Bulk dumps leave out deleted units.
    if (c.enhet.slettedato) continue;
    await out.enheter.add(c.enhet);
    for (const u of c.underenheter) await out.underenheter.add(u);
    if (c.roller.rollegrupper?.length)
      await out.roller.add({ organisasjonsnummer: c.enhet.organisasjonsnummer, ...c.roller });
    for (const r of c.regnskap) await out.regnskap.add(r);
  }
  await Promise.all(Object.values(out).map((f) => f.close()));
  return files;
}
