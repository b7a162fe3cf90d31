/**
 * Module B's domain logic: the dataset configuration, the eligible set and its statistics, per-artist
 * statuses with their audit trail, snapshots, validation. No HTTP and no SQL here.
 */
import { Errors } from '../../errors.js';
import type { Clock } from '../../infra/clock/clock.js';
import { DatasetErrors } from './errors.js';
import {
  computeEligibility,
  datasetStats,
  NOT_PLATFORM_OWNED,
  sortIds,
  type ArtistOverride,
  type CatalogSnapshot,
  type DatasetSettings,
  type DatasetStats,
  type Eligibility,
} from './eligibility.js';
import type { ArtistAuditRow, DatasetConfigChange, DatasetConfigRow, DatasetRepository, DatasetSnapshotRow } from './repository.js';
import {
  AUDIO_SOURCE,
  LYRICS_SOURCE,
  type ArtistFilterMode,
  type ArtistStatus,
  type DatasetArtistView,
  type DatasetConfigPatch,
  type DatasetConfigView,
  type SnapshotView,
  type TrainingRunView,
  type ValidationReport,
} from './schemas.js';
import { audioFingerprint, lyricFingerprint, snapshotContent, snapshotHash } from './snapshot-hash.js';
import type { DatasetValidator, ValidationTarget } from './validation.js';

/** Port: the training jobs (module C) that used each snapshot. */
export interface TrainingRunsLookup {
  runsForSnapshots(snapshotIds: string[]): Promise<Map<string, TrainingRunView[]>>;
}

/** Port: the bitrate of every uploaded master that has one, by track id (the platform's uploads serve it). */
export interface MasterBitrates {
  masterBitrates(): Promise<Map<string, number>>;
}

/**
 * The configuration as frozen into a snapshot (and hashed): no timestamps, lists in canonical order. A type
 * alias, not an interface, so that it is a Record<string, unknown> as dataset_snapshots.config is typed.
 */
export type FrozenDatasetConfig = {
  training_sources: DatasetConfigView['training_sources'];
  artist_filter: DatasetConfigView['artist_filter'];
  era_filter: DatasetConfigView['era_filter'];
  quality_gate: DatasetConfigView['quality_gate'];
  /** Explicit per-artist statuses in force, by artist id. */
  artist_statuses: { artist_id: string; status: ArtistStatus }[];
};

export const settingsOf = (row: DatasetConfigRow): DatasetSettings => ({
  sonicCapsules: row.sonicCapsules,
  artistFilterMode: row.artistFilterMode as ArtistFilterMode,
  artistIds: row.artistIds,
  includeYears: row.includeYears,
  minAudioBitrateKbps: row.minAudioBitrateKbps,
  requireIsrc: row.requireIsrc,
  requireCredits: row.requireCredits,
});

function configView(row: DatasetConfigRow): DatasetConfigView {
  return {
    training_sources: { audio: AUDIO_SOURCE, lyrics: LYRICS_SOURCE, sonic_capsules: row.sonicCapsules },
    artist_filter: { mode: row.artistFilterMode as ArtistFilterMode, artist_ids: row.artistIds },
    era_filter: { include_years: row.includeYears },
    quality_gate: { min_audio_bitrate: row.minAudioBitrateKbps, require_isrc: row.requireIsrc, require_credits: row.requireCredits },
    updated_at: row.updatedAt.toISOString(),
    updated_by: row.updatedBy,
    applies_to: 'next_training_run',
  };
}

export function frozenConfig(row: DatasetConfigRow, overrides: ArtistOverride[]): FrozenDatasetConfig {
  const view = configView(row);
  return {
    training_sources: view.training_sources,
    artist_filter: view.artist_filter,
    era_filter: view.era_filter,
    quality_gate: view.quality_gate,
    artist_statuses: [...overrides]
      .sort((a, b) => (a.artistId < b.artistId ? -1 : a.artistId > b.artistId ? 1 : 0))
      .map((o) => ({ artist_id: o.artistId, status: o.status })),
  };
}

function snapshotView(row: DatasetSnapshotRow, runs: TrainingRunView[]): SnapshotView {
  return {
    snapshot_id: row.id,
    name: row.name,
    description: row.description,
    dataset_hash: row.datasetHash,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
    config: row.config,
    item_counts: { audio: row.audioTrackIds.length, lyrics: row.lyricIds.length },
    training_runs: runs,
  };
}

export class DatasetService {
  constructor(
    private readonly repo: DatasetRepository,
    private readonly validator: DatasetValidator,
    private readonly clock: Clock,
    /** How to find the training jobs that used a snapshot. */
    private readonly trainingRuns: TrainingRunsLookup,
    /** The uploaded masters' bitrates, which the quality gate judges an uploaded track by. */
    private readonly masters: MasterBitrates,
  ) {}

  async getConfig(): Promise<DatasetConfigView> {
    return configView(await this.repo.config());
  }

  /** Partial update; every 400 is thrown before anything is written. */
  async updateConfig(patch: DatasetConfigPatch, by: string | null): Promise<DatasetConfigView> {
    const sources = patch.training_sources;
    if (sources?.audio !== undefined && sources.audio !== AUDIO_SOURCE) {
      throw DatasetErrors.violation(`training_sources.audio is fixed to "${AUDIO_SOURCE}" and cannot be changed (got "${sources.audio}")`);
    }
    if (sources?.lyrics !== undefined && sources.lyrics !== LYRICS_SOURCE) {
      throw DatasetErrors.violation(`training_sources.lyrics is fixed to "${LYRICS_SOURCE}" and cannot be changed (got "${sources.lyrics}")`);
    }
    const row = await this.repo.transaction(async (repo) => {
      const current = await repo.lockConfig();
      const change: DatasetConfigChange = { updatedBy: by };
      if (sources?.sonic_capsules !== undefined) change.sonicCapsules = sources.sonic_capsules;
      if (patch.artist_filter) {
        const mode = patch.artist_filter.mode ?? (current.artistFilterMode as ArtistFilterMode);
        const ids = sortIds(patch.artist_filter.artist_ids ?? current.artistIds);
        await this.checkArtistFilter(repo, mode, ids);
        change.artistFilterMode = mode;
        change.artistIds = ids;
      }
      if (patch.era_filter?.include_years !== undefined) change.includeYears = [...new Set(patch.era_filter.include_years)].sort((a, b) => a - b);
      const gate = patch.quality_gate;
      if (gate?.min_audio_bitrate !== undefined) change.minAudioBitrateKbps = gate.min_audio_bitrate;
      if (gate?.require_isrc !== undefined) change.requireIsrc = gate.require_isrc;
      if (gate?.require_credits !== undefined) change.requireCredits = gate.require_credits;
      return repo.updateConfig(change);
    });
    return configView(row);
  }

  /** A whitelist may only name platform-owned artists; any list must name artists that exist. */
  private async checkArtistFilter(repo: DatasetRepository, mode: ArtistFilterMode, ids: string[]): Promise<void> {
    const known = new Map((await repo.artistsByIds(ids)).map((a) => [a.id, a]));
    const unknown = ids.filter((id) => !known.has(id));
    if (mode === 'whitelist') {
      const foreign = ids.filter((id) => known.get(id)?.platformOwned === false);
      if (foreign.length > 0) throw DatasetErrors.violation(`artist_filter whitelists artists that are ${NOT_PLATFORM_OWNED}: ${foreign.join(', ')}`);
      if (unknown.length > 0) throw DatasetErrors.violation(`artist_filter whitelists unknown artists: ${unknown.join(', ')}`);
    } else if (unknown.length > 0) {
      throw Errors.validation(`artist_filter.artist_ids names unknown artists: ${unknown.join(', ')}`);
    }
  }

  /**
   * `masterKbps`: read before a transaction that calls this (the port reads outside it, and an embedded
   * database runs one transaction's statements at a time, so reading it inside would wait on itself).
   */
  private async current(repo: DatasetRepository = this.repo, masterKbps?: Map<string, number>) {
    const [row, overrides, rows, kbps] = await Promise.all([repo.config(), repo.overrides(), repo.catalog(), masterKbps ?? this.masters.masterBitrates()]);
    // The quality gate judges an uploaded track by its master, not by the 320 kbps rendition made from it.
    const catalog = { ...rows, tracks: rows.tracks.map((track) => ({ ...track, audioBitrateKbps: kbps.get(track.id) ?? track.audioBitrateKbps })) };
    return { row, overrides, catalog, eligibility: computeEligibility(settingsOf(row), overrides, catalog) };
  }

  async stats(): Promise<DatasetStats> {
    const { eligibility, catalog } = await this.current();
    return datasetStats(eligibility, catalog);
  }

  async listArtists(query: { status?: ArtistStatus; page: number; limit: number; offset: number }) {
    const { eligibility, catalog } = await this.current();
    const entries = artistEntries(eligibility, catalog).filter((entry) => !query.status || entry.status === query.status);
    const page = entries.slice(query.offset, query.offset + query.limit);
    const changes = await this.repo.lastChanges(page.map((e) => e.artist_id));
    return {
      data: page.map((entry) => ({ ...entry, last_change: changeView(changes.get(entry.artist_id)) })),
      total: entries.length,
      page: query.page,
      limit: query.limit,
    };
  }

  /** Sets an artist's status; including an artist that is not platform-owned is a dataset violation. */
  async setArtistStatus(artistId: string, body: { status: ArtistStatus; reason: string }, by: string | null): Promise<DatasetArtistView> {
    const [artist] = await this.repo.artistsByIds([artistId]);
    if (!artist) throw DatasetErrors.artistNotFound(artistId);
    if (!artist.platformOwned && body.status === 'included') {
      throw DatasetErrors.violation(`artist ${artistId} (${artist.name}) is ${NOT_PLATFORM_OWNED}; its audio and lyrics can never be included`);
    }
    await this.repo.transaction(async (repo) => {
      // Serialised with configuration changes and snapshots (see lockConfig).
      const row = await repo.lockConfig();
      const overrides = await repo.overrides();
      const before = computeEligibility(settingsOf(row), overrides, { artists: [artist], tracks: [], lyrics: [] }).artists.get(artist.id)!;
      await repo.setArtistStatus({
        artistId: artist.id,
        oldStatus: before.status,
        status: body.status,
        reason: body.reason,
        by,
        at: new Date(this.clock.now()),
      });
    });
    const { eligibility, catalog } = await this.current();
    const entry = artistEntries(eligibility, catalog).find((e) => e.artist_id === artist.id);
    if (!entry) throw DatasetErrors.artistNotFound(artistId);
    return { ...entry, last_change: changeView((await this.repo.lastChanges([artist.id])).get(artist.id)) };
  }

  /** Freezes the configuration and the exact eligible items, with their hash. */
  async createSnapshot(body: { name: string; description?: string }, by: string | null): Promise<SnapshotView> {
    const masterKbps = await this.masters.masterBitrates();
    const row = await this.repo.transaction(async (repo) => {
      await repo.lockConfig();
      const { row: config, overrides, eligibility } = await this.current(repo, masterKbps);
      const [features, documents] = await Promise.all([repo.featuresOf(eligibility.audioTrackIds), repo.lyricDocuments(eligibility.lyricIds)]);
      const missing = [...eligibility.audioTrackIds.filter((id) => !features.has(id)), ...eligibility.lyricIds.filter((id) => !documents.has(id))];
      if (missing.length > 0) throw Errors.conflict('The catalog changed while the snapshot was taken; try again', `items gone: ${missing.join(', ')}`);
      const frozen = frozenConfig(config, overrides);
      const content = snapshotContent(
        frozen,
        eligibility.audioTrackIds.map((id) => audioFingerprint(id, features.get(id)!)),
        eligibility.lyricIds.map((id) => lyricFingerprint(id, documents.get(id)!)),
      );
      return repo.insertSnapshot({
        name: body.name,
        description: body.description ?? '',
        config: content.config,
        audioTrackIds: content.audio_track_ids,
        lyricIds: content.lyric_ids,
        datasetHash: snapshotHash(content),
        createdBy: by,
        createdAt: new Date(this.clock.now()),
      });
    });
    return snapshotView(row, []);
  }

  async listSnapshots(page: { page: number; limit: number; offset: number }) {
    const { rows, total } = await this.repo.listSnapshots(page);
    const runs = rows.length > 0 ? await this.trainingRuns.runsForSnapshots(rows.map((r) => r.id)) : new Map<string, TrainingRunView[]>();
    return { data: rows.map((row) => snapshotView(row, runs.get(row.id) ?? [])), total, page: page.page, limit: page.limit };
  }

  async getSnapshot(snapshotId: string) {
    const row = await this.repo.snapshot(snapshotId);
    if (!row) throw DatasetErrors.snapshotNotFound(snapshotId);
    const runs = await this.trainingRuns.runsForSnapshots([row.id]);
    return { ...snapshotView(row, runs.get(row.id) ?? []), audio_track_ids: row.audioTrackIds, lyric_ids: row.lyricIds };
  }

  /** Validates the current eligible set, or the items frozen in a snapshot. */
  async validate(body: { snapshot_id?: string }): Promise<ValidationReport> {
    let target: ValidationTarget;
    if (body.snapshot_id !== undefined) {
      const snapshot = await this.repo.snapshot(body.snapshot_id);
      if (!snapshot) throw DatasetErrors.snapshotNotFound(body.snapshot_id);
      target = {
        audioTrackIds: snapshot.audioTrackIds,
        lyricIds: snapshot.lyricIds,
        includedArtistRefs: includedRefs(
          // dataset_snapshots.config stays Record<string, unknown> (FrozenDatasetConfig is built from this module's route
          // schemas, which the db schema may not import); every row's config was written from frozenConfig() by createSnapshot.
          snapshot.config as FrozenDatasetConfig,
        ),
      };
    } else {
      const { row, overrides, eligibility } = await this.current();
      target = { audioTrackIds: eligibility.audioTrackIds, lyricIds: eligibility.lyricIds, includedArtistRefs: includedRefs(frozenConfig(row, overrides)) };
    }
    const outcome = await this.validator.validate(target);
    return {
      valid: outcome.problems.length === 0,
      scope: { kind: body.snapshot_id === undefined ? 'current' : 'snapshot', snapshot_id: body.snapshot_id ?? null },
      checked: outcome.checked,
      problems: outcome.problems,
      validated_at: new Date(this.clock.now()).toISOString(),
    };
  }
}

function changeView(change: ArtistAuditRow | undefined): DatasetArtistView['last_change'] {
  if (!change) return null;
  return {
    old_status: change.oldStatus as ArtistStatus,
    new_status: change.newStatus as ArtistStatus,
    reason: change.reason,
    changed_by: change.changedBy,
    changed_at: change.changedAt.toISOString(),
  };
}

/** The artists a configuration explicitly names as included: whitelist entries and per-artist "included". */
function includedRefs(config: FrozenDatasetConfig): ValidationTarget['includedArtistRefs'] {
  const refs: ValidationTarget['includedArtistRefs'] = [];
  if (config.artist_filter?.mode === 'whitelist') for (const id of config.artist_filter.artist_ids) refs.push({ artistId: id, via: 'the artist whitelist' });
  for (const s of config.artist_statuses ?? []) if (s.status === 'included') refs.push({ artistId: s.artist_id, via: 'a per-artist "included" status' });
  return refs;
}

function artistEntries(eligibility: Eligibility, catalog: CatalogSnapshot): Omit<DatasetArtistView, 'last_change'>[] {
  const counts = new Map<string, { tracks: number; lyrics: number; eligibleMasters: number; eligibleLyrics: number }>();
  const countOf = (id: string) => {
    let c = counts.get(id);
    if (!c) counts.set(id, (c = { tracks: 0, lyrics: 0, eligibleMasters: 0, eligibleLyrics: 0 }));
    return c;
  };
  const eligibleTracks = new Set(eligibility.audioTrackIds);
  const eligibleLyrics = new Set(eligibility.lyricIds);
  for (const t of catalog.tracks) {
    const c = countOf(t.artistId);
    c.tracks += 1;
    if (eligibleTracks.has(t.id)) c.eligibleMasters += 1;
  }
  for (const l of catalog.lyrics) {
    const c = countOf(l.artistId);
    c.lyrics += 1;
    if (eligibleLyrics.has(l.id)) c.eligibleLyrics += 1;
  }
  return catalog.artists.map((artist) => {
    const decision = eligibility.artists.get(artist.id)!;
    const c = countOf(artist.id);
    return {
      artist_id: artist.id,
      slug: artist.slug,
      name: artist.name,
      platform_owned: artist.platformOwned,
      status: decision.status,
      status_reason: decision.reason,
      status_source: decision.source,
      tracks: c.tracks,
      lyrics: c.lyrics,
      eligible_masters: c.eligibleMasters,
      eligible_lyrics: c.eligibleLyrics,
    };
  });
}
