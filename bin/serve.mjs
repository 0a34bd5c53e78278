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

// How V8 sizes the heap (BENCHMARKS.md, "Round 2, fourth pass"). By default V8 sizes it for
// throughput: under lookup load with the record cache evicting, the heap grew to 217 MB with
// 76 MB in use, and a PostgreSQL server's RSS to 397 MB after 5 minutes.
//   bounded: the heap grows to at most 1.4 × what survived the last full collection
//            (--heap-growing-percent=40): RSS 266 MB and flat, at V8's default throughput.
//   size:    --optimize-for-size: also a small young generation and leaner compiled code, so
//            ~30 % fewer cached lookups a second, for ~35 MB less than bounded. The embedded
//            engine's default: PGlite's WASM heap lives in the same process (its RSS bound is
//            500 MB against 300 MB with PostgreSQL).
//   throughput: V8's default.
// Default: bounded with DATABASE_URL (PostgreSQL), size without (embedded). Set before the
// server allocates; V8 reads them when it sizes the heap after each collection.
const HEAP_FLAGS = {
  bounded: ['--heap-growing-percent=40'],
  size: ['--optimize-for-size'],
  throughput: [],
};
const heap = process.env.NODE_HEAP ?? (process.env.DATABASE_URL ? 'bounded' : 'size');
if (!Object.hasOwn(HEAP_FLAGS, heap)) {
  console.error(`ncd: NODE_HEAP must be bounded, size or throughput, not ${JSON.stringify(heap)}`);
  process.exit(1);
}
for (const flag of HEAP_FLAGS[heap]) v8.setFlagsFromString(flag);

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
