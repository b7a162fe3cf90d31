/** Wires artists, albums (releases) and the admin's artist verification: one call from src/app.ts. */
import type { FastifyInstance } from 'fastify';
import type { UrlSigner } from '../../infra/blobs/url-signer.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import { AlbumsRepository } from '../albums/albums.repository.js';
import { AlbumsService, type ReleaseProducts } from '../albums/albums.service.js';
import { albumsRoutes } from '../albums/routes.js';
import { ArtistVerificationService } from './artists-verification.service.js';
import { artistVerificationRoutes } from './artists-verification.routes.js';
import type { CatalogRepository } from '../catalog/catalog.repository.js';
import type { CatalogService } from '../catalog/catalog.service.js';
import type { PlatformEvents } from '../webhooks/platform-events.js';
import { ArtistOnboardingService, type ArtistAccounts } from './artist-onboarding.service.js';
import { ArtistsRepository, type AccountLock } from './artists.repository.js';
import { FollowsRepository } from './follows.repository.js';
import { ArtistsService, type ArtistDatasetStatus } from './artists.service.js';
import { artistsRoutes } from './routes.js';

export interface ArtistsModuleDeps {
  db: Db;
  catalogRepository: CatalogRepository;
  catalog: CatalogService;
  signer: UrlSigner;
  events: PlatformEvents;
  clock: Clock;
  accounts: ArtistAccounts;
  /** Auth's lock of the user's row, so that two concurrent creations by one account make one profile. */
  accountLock: AccountLock;
  /** The store's read port: the products that sell a release. */
  releaseProducts: ReleaseProducts;
  /** The station's dataset manager's read port (module B's `artistStatus`): a virtual artist's training status. */
  datasetStatus: ArtistDatasetStatus;
}

export function buildArtistsModule(deps: ArtistsModuleDeps) {
  const artists = new ArtistsRepository(deps.db, deps.accountLock);
  const albums = new AlbumsService(new AlbumsRepository(deps.db), deps.catalogRepository, deps.catalog, deps.signer, deps.releaseProducts);
  return {
    /** Listeners' follows of artists (`artist_follows`) and the live followers counter kept with them, for the listeners module. */
    follows: new FollowsRepository(deps.db),
    async routes(app: FastifyInstance) {
      const service = new ArtistsService(artists, deps.catalog, albums, deps.datasetStatus);
      await app.register(artistsRoutes(service, new ArtistOnboardingService(artists, service, deps.accounts)));
      await app.register(albumsRoutes(albums));
      await app.register(artistVerificationRoutes(new ArtistVerificationService(artists, deps.events, deps.clock)));
    },
  };
}
