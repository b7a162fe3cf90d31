/**
 * The web front end: the listener player (index.html, served at /), the admin panel (admin/index.html, /admin),
 * the artist studio (studio/index.html, /studio) and the developer portal (developers/index.html, /developers),
 * built into dist/web, which src/http/web.ts serves.
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
      ['/v1', '/api', '/station', '/media', '/policy', '/docs', '/openapi.json'].map((path) => [
        path,
        { target: 'http://localhost:8080', ws: path === '/station' },
      ]),
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
      // One bundle per area: the listener page carries none of the studio's or the portal's code.
      input: {
        listener: here('./index.html'),
        admin: here('./admin/index.html'),
        studio: here('./studio/index.html'),
        developers: here('./developers/index.html'),
      },
    },
  },
});
