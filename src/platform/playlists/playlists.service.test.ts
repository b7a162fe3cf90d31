/**
 * Playlists' domain rules (who sees, who changes, the order of tracks), tested beside the service on an
 * in-memory store behind the same PlaylistsStore interface: no database, milliseconds. What the database
 * adds (locking, environments in SQL, the owner's profile join) is covered by test/platform/listeners-playlists.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { domainFailure as failure } from '../../../test/helpers/domain-failure.js';
import type { Principal } from '../../auth/principal.js';
import type { Scope } from '../../auth/scopes.js';
import { ManualClock } from '../../infra/clock/clock.js';
import type { Environment } from '../../kernel/environment.js';
import type { TrackRefRow } from '../shared/track-ref.js';
import { MAX_PLAYLIST_TRACKS, type PlaylistEntryRow, type PlaylistsStore, type PlaylistWithOwner } from './playlists.repository.js';
import { PlaylistsService } from './playlists.service.js';

type Stored = Omit<PlaylistWithOwner, 'trackCount' | 'ownerPlaylistsPublic'>;
type Entry = { trackId: string; addedAt: Date };

/** The repository's contract in memory: playlists, their ordered entries, published tracks and owners' profile setting. */
class InMemoryPlaylists implements PlaylistsStore {
  readonly playlists = new Map<string, Stored>();
  readonly entriesOf = new Map<string, Entry[]>();
  readonly tracks = new Map<string, TrackRefRow & { environment: Environment }>();
  /** Owners whose profile hides their playlists (playlists_public: false); public by default. */
  readonly hiddenOwners = new Set<string>();

  constructor(private readonly clock: ManualClock) {}

  async create(input: { ownerUserId: string; environment: Environment; name: string; description: string; isPublic: boolean }) {
    const row: Stored = { id: randomUUID(), ...input, createdAt: this.clock.date(), updatedAt: this.clock.date() };
    this.playlists.set(row.id, row);
    this.entriesOf.set(row.id, []);
    return { ...row, trackCount: 0 };
  }

  async find(id: string): Promise<PlaylistWithOwner | null> {
    const row = this.playlists.get(id);
    if (!row) return null;
    return { ...row, trackCount: this.entriesOf.get(id)!.length, ownerPlaylistsPublic: !this.hiddenOwners.has(row.ownerUserId) };
  }

  async entries(playlistId: string): Promise<PlaylistEntryRow[]> {
    return (this.entriesOf.get(playlistId) ?? []).map((entry, position) => {
      const { environment: _environment, ...track } = this.tracks.get(entry.trackId)!;
      return { ...track, position, addedAt: entry.addedAt };
    });
  }

  async update(id: string, change: { name?: string; description?: string; isPublic?: boolean }) {
    const row = this.playlists.get(id);
    if (row) this.playlists.set(id, { ...row, ...change, updatedAt: this.clock.date() });
  }

  async delete(id: string) {
    this.playlists.delete(id);
    this.entriesOf.delete(id);
  }

  async editTracks(playlistId: string, change: (current: Entry[]) => Entry[]) {
    const next = change([...(this.entriesOf.get(playlistId) ?? [])]); // a throw leaves the order as it was
    this.entriesOf.set(playlistId, next);
  }

  async findPublishedTrack(trackId: string, environment: Environment) {
    const track = this.tracks.get(trackId);
    return track && track.environment === environment && track.trackStatus === 'published' ? track.trackId : null;
  }

  addTrack(title: string, environment: Environment = 'live'): string {
    const trackId = randomUUID();
    const track = {
      trackId,
      trackSlug: title.toLowerCase(),
      trackTitle: title,
      artistName: 'Marisol',
      artistId: 'artist-1',
      artistSlug: 'marisol',
      durationSec: 180,
      streams: 0,
      genre: 'lofi',
      trackStatus: 'published' as const,
      environment,
    };
    this.tracks.set(trackId, track);
    return trackId;
  }
}

function principal(userId: string | null, options: { kind?: Principal['kind']; admin?: boolean; environment?: Environment } = {}): Principal {
  // The service checks only the administrator scope; the routes check the rest.
  const scopes = new Set<Scope>(options.admin ? ['platform:admin'] : []);
  return {
    kind: options.kind ?? 'user',
    userId,
    role: options.admin ? 'admin' : 'listener',
    scopes,
    credentialId: `cred-${userId}`,
    sessionId: `session-${userId}`,
    apiKeyId: null,
    environment: options.environment ?? 'live',
    metered: false,
  };
}

describe('PlaylistsService (in-memory store)', () => {
  const clock = new ManualClock();
  let store: InMemoryPlaylists;
  let service: PlaylistsService;
  const owner = principal('owner');
  const other = principal('other');
  const admin = principal('admin', { admin: true });

  beforeEach(() => {
    store = new InMemoryPlaylists(clock);
    service = new PlaylistsService(store, clock);
  });

  it('creates with a trimmed name, public by default, and refuses a blank name', async () => {
    const created = await service.create(owner, { name: '  Night drive  ' });
    expect(created).toMatchObject({ owner_id: 'owner', name: 'Night drive', description: '', public: true, track_count: 0, tracks: [] });
    expect(await failure(service.create(owner, { name: '   ' }))).toEqual({ kind: 'invalid', code: 'VALIDATION_FAILED' });
    expect(await failure(service.create(principal('svc', { kind: 'service' }), { name: 'Keys' }))).toMatchObject({ kind: 'forbidden' });
  });

  it('shows a private playlist to its owner and admins only; to anyone else it does not exist', async () => {
    const { id } = await service.create(owner, { name: 'Mine', public: false });
    expect((await service.get(owner, id)).name).toBe('Mine');
    expect((await service.get(admin, id)).name).toBe('Mine');
    expect(await failure(service.get(other, id))).toMatchObject({ kind: 'not_found' });
  });

  it("shows a public playlist to others only while the owner's profile shows playlists", async () => {
    const { id } = await service.create(owner, { name: 'Shared' });
    expect((await service.get(other, id)).name).toBe('Shared');
    store.hiddenOwners.add('owner');
    expect(await failure(service.get(other, id))).toMatchObject({ kind: 'not_found' });
    expect((await service.get(owner, id)).name).toBe('Shared');
  });

  it('keeps the sandbox and live apart', async () => {
    const { id } = await service.create(owner, { name: 'Live list' });
    expect(await failure(service.get(principal('owner', { environment: 'test' }), id))).toMatchObject({ kind: 'not_found' });
  });

  it('lets only the owner change or delete: 403 to one who can see it, 404 to one who cannot', async () => {
    const shared = await service.create(owner, { name: 'Shared' });
    const hidden = await service.create(owner, { name: 'Hidden', public: false });
    expect(await failure(service.update(other, shared.id, { name: 'Mine now' }))).toMatchObject({ kind: 'forbidden' });
    expect(await failure(service.delete(other, hidden.id))).toMatchObject({ kind: 'not_found' });
    expect(await service.update(owner, shared.id, { name: ' Renamed ', public: false })).toMatchObject({ name: 'Renamed', public: false });
    expect(await failure(service.update(owner, shared.id, { name: ' ' }))).toEqual({ kind: 'invalid', code: 'VALIDATION_FAILED' });
    await service.delete(owner, shared.id);
    expect(await failure(service.get(owner, shared.id))).toMatchObject({ kind: 'not_found' });
  });

  it('adds tracks at a position (the end by default or past it), once each, published ones of its environment only', async () => {
    const { id } = await service.create(owner, { name: 'Order' });
    const [a, b, c] = ['A', 'B', 'C'].map((title) => store.addTrack(title));
    await service.addTrack(owner, id, a);
    await service.addTrack(owner, id, b, 99);
    const view = await service.addTrack(owner, id, c, 0);
    expect(view.tracks.map((t) => [t.position, t.track.title])).toEqual([
      [0, 'C'],
      [1, 'A'],
      [2, 'B'],
    ]);
    expect(view.track_count).toBe(3);
    expect(await failure(service.addTrack(owner, id, a))).toMatchObject({ kind: 'conflict' });
    expect(await failure(service.addTrack(owner, id, randomUUID()))).toMatchObject({ kind: 'not_found' });
    expect(await failure(service.addTrack(owner, id, store.addTrack('Sandbox', 'test')))).toMatchObject({ kind: 'not_found' });
    expect((await service.get(owner, id)).tracks).toHaveLength(3);
  });

  it(`holds at most ${MAX_PLAYLIST_TRACKS} tracks`, async () => {
    const { id } = await service.create(owner, { name: 'Full' });
    store.entriesOf.set(
      id,
      Array.from({ length: MAX_PLAYLIST_TRACKS }, (_, i) => ({ trackId: store.addTrack(`T${i}`), addedAt: clock.date() })),
    );
    expect(await failure(service.addTrack(owner, id, store.addTrack('One more')))).toMatchObject({ kind: 'conflict' });
  });

  it('reorders only with every track named exactly once, and removes a track it holds', async () => {
    const { id } = await service.create(owner, { name: 'Order' });
    const [a, b, c] = ['A', 'B', 'C'].map((title) => store.addTrack(title));
    for (const track of [a, b, c]) await service.addTrack(owner, id, track);
    for (const wrong of [
      [a, b],
      [a, b, b],
      [a, b, c, c],
      [a, b, randomUUID()],
    ]) {
      expect(await failure(service.reorder(owner, id, wrong))).toMatchObject({ kind: 'conflict' });
    }
    const reordered = await service.reorder(owner, id, [c, a, b]);
    expect(reordered.tracks.map((t) => t.track.title)).toEqual(['C', 'A', 'B']);
    const removed = await service.removeTrack(owner, id, a);
    expect(removed.tracks.map((t) => [t.position, t.track.title])).toEqual([
      [0, 'C'],
      [1, 'B'],
    ]);
    expect(await failure(service.removeTrack(owner, id, a))).toMatchObject({ kind: 'not_found' });
  });
});
