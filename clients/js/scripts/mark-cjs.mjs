// After the CommonJS build: the package is "type": "module", so without this file Node (and
// TypeScript) would read dist/cjs/*.js and *.d.ts as ES modules.
import { writeFileSync } from 'node:fs';

writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{ "type": "commonjs" }\n');
