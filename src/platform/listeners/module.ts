/** Wires library, listeners (with the artists group's follows), playlists and capsules: one call from src/app.ts. */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock/clock.js';
import type { Db } from '../../infra/db/client.js';
import type { PlatformEvents } from '../webhooks/platform-events.js';
import { LibraryService } from '../library/library.service.js';
import { libraryRoutes } from '../library/routes.js';
import { PlaylistsRepository, type OwnerPlaylistPrivacy, type PlaylistCatalog } from '../playlists/playlists.repository.js';
import { PlaylistsService } from '../playlists/playlists.service.js';
import { playlistsRoutes } from '../playlists/routes.js';
import { CapsulesRepository, type CapsuleCatalog, type SandboxTwins } from '../capsules/capsules.repository.js';
import { CapsulesService, type CapsuleFollows, type CapsulePurchases } from '../capsules/capsules.service.js';
import { capsulesRoutes } from '../capsules/routes.js';
import { LibraryRepository, type LibraryCatalog } from '../library/library.repository.js';
import { ListenersService, type ArtistFollows, type ListeningHistory, type ProfileReads } from './listeners.service.js';
import { listenersRoutes } from './routes.js';

export interface ListenersModuleDeps {
  db: Db;
  events: PlatformEvents;
  clock: Clock;
  /** The store's read port: what unlocks a capsule kept for buyers. */
  purchases: CapsulePurchases;
  /** The users group's read port: a listener's public profile, and whether an owner's playlists are public. */
  profiles: ProfileReads & OwnerPlaylistPrivacy;
  /** The catalog's read port: the display fields of saved, listed and hidden tracks, releases and artists. */
  catalog: LibraryCatalog & PlaylistCatalog & CapsuleCatalog;
  /** The catalog's read port: a listener's recorded plays. */
  listeningHistory: ListeningHistory;
  /** The artists group's port: the sandbox copies of a test key's owner's artists, made before a capsule is. */
  sandboxTwins: SandboxTwins;
  /** The artists group's follows: `artist_follows` with the live followers counter it keeps in step. */
  follows: ArtistFollows & CapsuleFollows;
}

export function buildListenersModule(deps: ListenersModuleDeps) {
  const { follows } = deps;
  const playlists = new PlaylistsRepository(deps.db, deps.profiles, deps.catalog);
  return {
    async routes(app: FastifyInstance) {
      await app.register(libraryRoutes(new LibraryService(new LibraryRepository(deps.db, deps.catalog))));
      await app.register(playlistsRoutes(new PlaylistsService(playlists, deps.clock)));
      await app.register(listenersRoutes(new ListenersService(deps.profiles, deps.listeningHistory, playlists, follows)));
      await app.register(
        capsulesRoutes(new CapsulesService(new CapsulesRepository(deps.db, deps.catalog, deps.sandboxTwins), follows, deps.events, deps.clock, deps.purchases)),
      );
    },
  };
}
