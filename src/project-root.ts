// The package's root directory (the nearest one up with a package.json), found from this
// module's own location. The server runs from its sources (src/…, through tsx: tests, the CLI)
// and from one bundled module (dist/server.mjs, bin/serve.mjs), so files that ship beside the
// code (reference/, the migrations, the PGlite worker) are named from the root, not from the
// importing module's folder, which differs between the two.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function rootAbove(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'package.json'))) return d;
    if (path.dirname(d) === d) throw new Error(`no package.json above ${dir}`);
  }
}

const PROJECT_ROOT = rootAbove(path.dirname(fileURLToPath(import.meta.url)));

/** A path inside the package, e.g. `fromRoot('reference', 'nace.csv')`. */
export const fromRoot = (...parts: string[]) => path.join(PROJECT_ROOT, ...parts);
