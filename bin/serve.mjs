#!/usr/bin/env node
// `npm start` and `ncd serve`: runs the API server from one bundled JavaScript module,
// dist/server.mjs, built from src/main.ts by esbuild at each start (under a second; written only
// when it differs, atomically, so processes starting together never read half a file).
//
// Why not tsx, as the CLI and the tests use: tsx transpiles through module hooks, which Node 20
// runs on a thread of their own for the life of the process. That thread, its heap and its
// caches held ~65 MB of a server's resident memory (233 MB idle against 168 MB bundled, on the
// 1.2M store; BENCHMARKS.md). Packages stay external: they load from node_modules as before.
//
// `--build` builds and exits (the container image builds at image time, since its app folder is
// not writable by the user the server runs as). Where dist/ cannot be written, the server runs
// from its sources through tsx, as it did before.
import { build } from 'esbuild';
import v8 from 'node:v8';
import { readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// V8 sizes its heap for throughput by default: under lookup load with the record cache evicting,
// the heap grew to 217 MB with 76 MB in use, and the server's RSS to 397 MB after 5 minutes. With
// --optimize-for-size it collects sooner: 81 MB of heap, RSS 215 MB and flat, for ~8 % fewer
// cached lookups a second (BENCHMARKS.md). Set before the server allocates; V8 reads it when it
// sizes the heap after each collection. NODE_HEAP=throughput keeps V8's default.
const heap = process.env.NODE_HEAP ?? 'size';
if (heap !== 'size' && heap !== 'throughput') {
  console.error(`ncd: NODE_HEAP must be size or throughput, not ${JSON.stringify(heap)}`);
  process.exit(1);
}
if (heap === 'size') v8.setFlagsFromString('--optimize-for-size');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'src/main.ts');
const out = path.join(root, 'dist/server.mjs');

async function bundle() {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: out,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  return result.outputFiles[0].contents;
}

function current() {
  try {
    return readFileSync(out);
  } catch {
    return undefined;
  }
}

/** Writes the bundle unless the file already holds it; false when dist/ is not writable. */
function store(code) {
  const existing = current();
  if (existing && Buffer.compare(existing, code) === 0) return true;
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(tmp, code);
    renameSync(tmp, out);
    return true;
  } catch (err) {
    if (['EACCES', 'EPERM', 'EROFS'].includes(err.code)) return false;
    throw err;
  }
}

const written = store(await bundle());
if (process.argv.includes('--build')) {
  if (!written) {
    console.error(`ncd: cannot write ${out}`);
    process.exit(1);
  }
} else if (written) {
  await import(pathToFileURL(out).href);
} else {
  console.error(`ncd: ${out} is not writable; the server runs from its sources through tsx`);
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(entry).href);
}
