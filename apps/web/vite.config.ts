/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API serves the built app on the same origin; in development Vite proxies to it.
const API_ORIGIN = 'http://localhost:8080';
const proxy = {
  '/api': { target: API_ORIGIN, changeOrigin: true },
  '/health': { target: API_ORIGIN, changeOrigin: true },
  '/ws': { target: API_ORIGIN, changeOrigin: true, ws: true },
  // The spec's unprefixed generation calls and image addresses.
  '/models': { target: API_ORIGIN, changeOrigin: true },
  '/inference': { target: API_ORIGIN, changeOrigin: true },
  '/generation': { target: API_ORIGIN, changeOrigin: true },
  '/images': { target: API_ORIGIN, changeOrigin: true },
  // The ops console's queue console (bull-board), served by the API.
  '/admin/queues': { target: API_ORIGIN, changeOrigin: true },
};

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    target: 'es2022',
    rollupOptions: {
      onwarn(warning, warn) {
        // zod ships comments Rollup cannot place; harmless, and not ours to fix.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/zod/')) return;
        warn(warning);
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // An upper bound for a test on a loaded machine, not a speed target.
    testTimeout: 30_000,
  },
});
