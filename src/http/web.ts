/**
 * The web front end (web/, built by Vite into dist/web): the listener player at `/`, the station admin
 * panel at `/admin` (contract.md, "Paths"), the artist studio at `/studio` and the developer portal at
 * `/developers` (issue 17). All are single-page apps, so their own sub-paths answer their page (`/admin/*`,
 * `/studio/*`, `/developers/*`; the listener's catalog, library, playlist, store and account pages, LISTENER_PATHS,
 * with `/reset-password` and `/verify-email`, where the password-reset and verification mails point); nothing else is
 * claimed: `/v1`, `/station`, `/api`, `/docs`, `/media` and the operations routes keep their answers, and an
 * unknown path still gets the JSON 404. Hashed bundles are served from `/assets/` and cached for good.
 *
 * `npm start` builds the bundle first (prestart). When it is missing anyway the pages answer a 503 that
 * says how to build it, rather than a JSON 404 a person cannot make sense of.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Where `npm run build:web` writes the bundle. */
export const WEB_ROOT = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/**
 * The station's icon, kept beside the server rather than in the bundle: browsers ask for `/favicon.ico` on
 * every origin they open (the docs, a media link, the pages) whether or not the bundle is built.
 */
const FAVICON = fileURLToPath(new URL('./assets/favicon.ico', import.meta.url));

export interface WebOptions {
  /** The built bundle (default WEB_ROOT). */
  root?: string;
  /** PUBLIC_BASE_URL: media and stream links are absolute URLs on it, so the pages may load from there. */
  publicBaseUrl: string;
  /** The object store's origin when media links are presigned URLs on it (STATION_MEDIA_LINKS=presigned). */
  mediaOrigin?: string | null;
}

/**
 * The listener app's own paths (client-side routes, web/src/listener/App.tsx); everything else under `/`
 * belongs to the APIs. None of them is an API prefix (`/v1`, `/station`, `/api`, `/media`, `/docs`).
 */
export const LISTENER_PATHS = [
  '/',
  '/reset-password',
  '/verify-email',
  '/browse',
  '/artists/:slug',
  '/albums/:id',
  '/tracks/:id',
  '/library',
  '/playlists',
  '/playlists/:id',
  '/history',
  '/store',
  '/account',
] as const;
export const ADMIN_PATHS = ['/admin', '/admin/*'] as const;
/** The artist studio and the developer portal (issue 17), each its own bundle. */
export const STUDIO_PATHS = ['/studio', '/studio/*'] as const;
export const DEVELOPER_PATHS = ['/developers', '/developers/*'] as const;

const PAGE = { public: true } as const;
const HIDDEN = { hide: true } as const;

function contentSecurityPolicy(publicBaseUrl: string, mediaOrigin: string | null): string {
  try {
    const origin = new URL(publicBaseUrl).origin;
    const ws = origin.replace(/^http/, 'ws');
    const media = `'self' ${origin}${mediaOrigin ? ` ${new URL(mediaOrigin).origin}` : ''}`;
    return [
      "default-src 'self'",
      `img-src ${media} data: blob:`,
      `media-src ${media} blob:`,
      `connect-src ${media} ${ws}`,
      "style-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ].join('; ');
  } catch {
    return "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
  }
}

function notBuiltPage(root: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Station: web front end not built</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>The web front end is not built</h1>
<p>The listener player, the admin panel, the artist studio and the developer portal are built from <code>web/</code> into <code>${root.replace(/[<>&]/g, '')}</code>,
which is missing. Build it with</p><pre>npm run build:web</pre>
<p>(<code>npm start</code> does this by itself before starting the server), then reload this page.
The APIs work meanwhile: <a href="/docs">/docs</a>.</p></body></html>`;
}

export async function registerWeb(app: FastifyInstance, options: WebOptions): Promise<void> {
  const root = options.root ?? WEB_ROOT;
  const csp = contentSecurityPolicy(options.publicBaseUrl, options.mediaOrigin ?? null);
  const favicon = readFileSync(FAVICON);

  await app.register(async (scope) => {
    // serve: false: only reply.sendFile, on the routes below, so nothing else is claimed by the plugin.
    await scope.register(fastifyStatic, { root, serve: false, wildcard: false });

    const sendPage = (reply: FastifyReply, file: string) => {
      if (!existsSync(join(root, file))) {
        return reply.status(503).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Retry-After', '30').send(notBuiltPage(root));
      }
      reply.header('Content-Security-Policy', csp).header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'same-origin');
      // The page is small and names hashed bundles: always revalidate it so a new build is picked up.
      return reply.header('Cache-Control', 'no-cache').sendFile(file, root, { cacheControl: false });
    };

    for (const url of LISTENER_PATHS) scope.get(url, { config: PAGE, schema: HIDDEN }, (_request, reply) => sendPage(reply, 'index.html'));
    for (const url of ADMIN_PATHS) scope.get(url, { config: PAGE, schema: HIDDEN }, (_request, reply) => sendPage(reply, 'admin/index.html'));
    for (const url of STUDIO_PATHS) scope.get(url, { config: PAGE, schema: HIDDEN }, (_request, reply) => sendPage(reply, 'studio/index.html'));
    for (const url of DEVELOPER_PATHS) scope.get(url, { config: PAGE, schema: HIDDEN }, (_request, reply) => sendPage(reply, 'developers/index.html'));

    scope.get('/favicon.ico', { config: PAGE, schema: HIDDEN }, (_request, reply) =>
      reply.type('image/x-icon').header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'public, max-age=86400').send(favicon),
    );

    scope.get('/assets/*', { config: PAGE, schema: HIDDEN }, (request, reply) => {
      const file = (request.params as { '*': string })['*'];
      // File names carry their content hash: a new build gets new names, so these never go stale.
      return reply.header('X-Content-Type-Options', 'nosniff').sendFile(file, join(root, 'assets'), { immutable: true, maxAge: '365d', dotfiles: 'deny' });
    });
  });
}
