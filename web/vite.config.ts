/**
 * The web front end: two pages, the listener player (index.html, served at /) and the admin panel
 * (admin/index.html, served at /admin), built into dist/web, which src/http/web.ts serves.
 * `npm run build:web` runs it; `npm start` does so first (prestart).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('./'),
  base: '/',
  plugins: [react()],
  // No public/ folder: everything the pages need is imported, hashed and served from /assets/.
  publicDir: false,
  logLevel: 'warn',
  // `npm run dev:web`: the pages with hot reload on :5173, the APIs of a station running on :8080 (npm start).
  server: {
    proxy: Object.fromEntries(
      ['/v1', '/api', '/station', '/media', '/policy', '/docs', '/openapi.json'].map((path) => [path, { target: 'http://localhost:8080', ws: path === '/station' }]),
    ),
  },
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: { listener: here('./index.html'), admin: here('./admin/index.html') },
    },
  },
});
