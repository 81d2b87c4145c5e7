import { defineConfig } from 'tsup';

export default defineConfig({
  // The photo-check thread is its own file: worker threads load it by path, beside main.js.
  entry: { main: 'src/main.ts', 'analyzer-thread': 'src/photo-checks/analyzer-thread.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  // Workspace packages are bundled in; their own dependencies stay external, so the app must
  // declare them too (pg, kysely, the AWS SDK ...).
  noExternal: [/^@studioshot\//],
});
