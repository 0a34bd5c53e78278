#!/usr/bin/env node
// `npx ncd …`: runs the TypeScript CLI through tsx (no build step). `ncd serve` (the container's
// default command) starts the server as `npm start` does: from its bundle (bin/serve.mjs).
const [command, ...rest] = process.argv.slice(2);
if (command === 'serve' && !rest.includes('--help') && !rest.includes('-h')) {
  await import('./serve.mjs');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
