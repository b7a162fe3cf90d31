/** The media group for the composition root: signed links to stored audio and images, served with byte ranges. */
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../infra/blobs/blob-store.js';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import { mediaRoutes } from './routes.js';

export interface MediaModuleDeps {
  blobs: BlobStore;
  signer: UrlSigner;
}

export function buildMediaModule({ blobs, signer }: MediaModuleDeps) {
  return {
    routes: async (app: FastifyInstance) => {
      await app.register(mediaRoutes(blobs, signer));
    },
  };
}
