// The web console's script and stylesheet, bundled by esbuild from web/console/ the first time a
// console page is asked for (about a quarter of a second), then served from memory under
// content-hashed names. Building inside the server, as bin/serve.mjs bundles the server itself,
// keeps one install step and works where the package folder is read-only (the container image).
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { fromRoot } from '../../project-root.ts';

export interface ConsoleAsset {
  path: string;
  type: string;
  body: Buffer;
}

export interface ConsoleBundle {
  script: ConsoleAsset;
  style: ConsoleAsset;
}

const ASSET_BASE = '/console/assets';

function asset(name: string, ext: 'js' | 'css', body: Uint8Array): ConsoleAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return {
    path: `${ASSET_BASE}/${name}.${hash}.${ext}`,
    type: ext === 'js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
    body: Buffer.from(body),
  };
}

async function bundleConsole(): Promise<ConsoleBundle> {
  const result = await build({
    entryPoints: [fromRoot('web/console/main.tsx')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    outdir: fromRoot('dist/console'),
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    // The console reads its key from the session, never from the environment.
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'));
  if (!js || !css) throw new Error('the console bundle is missing its script or stylesheet');
  return { script: asset('console', 'js', js.contents), style: asset('console', 'css', css.contents) };
}

let pending: Promise<ConsoleBundle> | undefined;

/** The bundle, built once per process; a failed build is tried again on the next request. */
export function consoleBundle(): Promise<ConsoleBundle> {
  pending ??= bundleConsole().catch((err) => {
    pending = undefined;
    throw err;
  });
  return pending;
}
