import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  // Workspace packages are bundled in; their own dependencies stay external, so the app must
  // declare them too (pg, kysely, the AWS SDK ...).
  noExternal: [/^@studioshot\//],
});
