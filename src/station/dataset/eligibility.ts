/**
 * The eligible set, computed from the dataset configuration and catalog rows and nothing else (pure, so
 * every rule is unit-testable). Ownership comes first and cannot be overridden: a track or lyric of an
 * artist that is not platform-owned, or a lyric by a songwriter who is not the platform's, is never
 * eligible. Then an explicit per-artist status, then the artist filter, then the track's own gates
 * (master and features present, era, bitrate, ISRC, credits).
 */
import type { TrackStatus } from '../../infra/db/schema/index.js';
import type { ArtistFilterMode, ArtistStatus, ExclusionReason } from './schemas.js';
import { EXCLUSION_REASONS } from './schemas.js';

export interface DatasetSettings {
  sonicCapsules: boolean;
  artistFilterMode: ArtistFilterMode;
  artistIds: string[];
  /** Empty: every year. */
  includeYears: number[];
  minAudioBitrateKbps: number;
  requireIsrc: boolean;
  requireCredits: boolean;
}

export interface CatalogArtist {
  id: string;
  slug: string;
  name: string;
  platformOwned: boolean;
}

export interface CatalogTrack {
  id: string;
  title: string;
  artistId: string;
  status: TrackStatus;
  releaseYear: number | null;
  isrc: string | null;
  audioBitrateKbps: number | null;
  audioBlobKey: string | null;
  audioFormat: string | null;
  durationSec: number;
  hasFeatures: boolean;
  creditCount: number;
}

export interface CatalogLyric {
  id: string;
  slug: string;
  title: string;
  artistId: string;
  trackId: string | null;
  songwriterId: string;
  songwriterPlatformOwned: boolean;
}

export interface ArtistOverride {
  artistId: string;
  status: ArtistStatus;
  reason: string;
}

export interface CatalogSnapshot {
  artists: CatalogArtist[];
  tracks: CatalogTrack[];
  lyrics: CatalogLyric[];
}

export type ArtistStatusSource = 'platform_ownership' | 'artist_status' | 'artist_filter' | 'default';

export interface ArtistDecision {
  status: ArtistStatus;
  source: ArtistStatusSource;
  reason: string;
}

export interface Eligibility {
  artists: Map<string, ArtistDecision>;
  /** Sorted by code unit order (the same on every machine). */
  audioTrackIds: string[];
  lyricIds: string[];
  /** Every reason each left-out item fails, in EXCLUSION_REASONS order. */
  trackExclusions: Map<string, ExclusionReason[]>;
  lyricExclusions: Map<string, ExclusionReason[]>;
}

export const NOT_PLATFORM_OWNED = 'not platform-owned';

export const sortIds = (ids: Iterable<string>): string[] => [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export function artistDecision(artist: CatalogArtist, settings: DatasetSettings, override: ArtistOverride | undefined): ArtistDecision {
  if (!artist.platformOwned) return { status: 'excluded', source: 'platform_ownership', reason: NOT_PLATFORM_OWNED };
  if (override) return { status: override.status, source: 'artist_status', reason: override.reason };
  const listed = settings.artistIds.includes(artist.id);
  if (settings.artistFilterMode === 'whitelist') {
    return listed
      ? { status: 'included', source: 'artist_filter', reason: 'on the artist whitelist' }
      : { status: 'excluded', source: 'artist_filter', reason: 'not on the artist whitelist' };
  }
  if (settings.artistFilterMode === 'blacklist' && listed) return { status: 'excluded', source: 'artist_filter', reason: 'on the artist blacklist' };
  return { status: 'included', source: 'default', reason: 'platform-owned artist' };
}

const yearAllowed = (settings: DatasetSettings, year: number | null) =>
  settings.includeYears.length === 0 || (year !== null && settings.includeYears.includes(year));

export function trackExclusionReasons(
  track: CatalogTrack,
  artist: CatalogArtist | undefined,
  decision: ArtistDecision | undefined,
  settings: DatasetSettings,
): ExclusionReason[] {
  const reasons: ExclusionReason[] = [];
  if (!artist?.platformOwned) reasons.push('not_platform_owned');
  else if (decision?.status !== 'included') reasons.push('artist_excluded');
  if (track.status !== 'published') reasons.push('track_removed');
  if (!track.audioBlobKey) reasons.push('no_master');
  if (!track.hasFeatures) reasons.push('no_features');
  if (!yearAllowed(settings, track.releaseYear)) reasons.push('era');
  if (settings.minAudioBitrateKbps > 0 && (track.audioBitrateKbps ?? 0) < settings.minAudioBitrateKbps) reasons.push('bitrate');
  if (settings.requireIsrc && !track.isrc) reasons.push('isrc');
  if (settings.requireCredits && track.creditCount === 0) reasons.push('credits');
  return reasons;
}

/** Lyrics follow ownership, the artist's status and, when the lyric belongs to a track, the era filter. */
export function lyricExclusionReasons(
  lyric: CatalogLyric,
  artist: CatalogArtist | undefined,
  decision: ArtistDecision | undefined,
  track: CatalogTrack | undefined,
  settings: DatasetSettings,
): ExclusionReason[] {
  const reasons: ExclusionReason[] = [];
  if (!artist?.platformOwned) reasons.push('not_platform_owned');
  else if (decision?.status !== 'included') reasons.push('artist_excluded');
  if (track && !yearAllowed(settings, track.releaseYear)) reasons.push('era');
  if (!lyric.songwriterPlatformOwned) reasons.push('songwriter_not_platform');
  return reasons;
}

export function computeEligibility(settings: DatasetSettings, overrides: ArtistOverride[], catalog: CatalogSnapshot): Eligibility {
  const overrideOf = new Map(overrides.map((o) => [o.artistId, o]));
  const artistOf = new Map(catalog.artists.map((a) => [a.id, a]));
  const trackOf = new Map(catalog.tracks.map((t) => [t.id, t]));
  const artists = new Map(catalog.artists.map((a) => [a.id, artistDecision(a, settings, overrideOf.get(a.id))]));
  const trackExclusions = new Map<string, ExclusionReason[]>();
  const lyricExclusions = new Map<string, ExclusionReason[]>();
  const audio: string[] = [];
  const lyricIds: string[] = [];
  for (const track of catalog.tracks) {
    const reasons = trackExclusionReasons(track, artistOf.get(track.artistId), artists.get(track.artistId), settings);
    if (reasons.length === 0) audio.push(track.id);
    else trackExclusions.set(track.id, reasons);
  }
  for (const lyric of catalog.lyrics) {
    const track = lyric.trackId ? trackOf.get(lyric.trackId) : undefined;
    const reasons = lyricExclusionReasons(lyric, artistOf.get(lyric.artistId), artists.get(lyric.artistId), track, settings);
    if (reasons.length === 0) lyricIds.push(lyric.id);
    else lyricExclusions.set(lyric.id, reasons);
  }
  return { artists, audioTrackIds: sortIds(audio), lyricIds: sortIds(lyricIds), trackExclusions, lyricExclusions };
}

export interface DatasetStats {
  total_masters_eligible: number;
  total_lyric_files: number;
  total_hours_audio: number;
  era_breakdown: Record<string, number>;
  total_tracks: number;
  total_lyrics: number;
  excluded_masters: Record<ExclusionReason, number>;
  excluded_lyrics: Record<ExclusionReason, number>;
}

const zeroCounts = () => Object.fromEntries(EXCLUSION_REASONS.map((r) => [r, 0])) as Record<ExclusionReason, number>;

export function datasetStats(eligibility: Eligibility, catalog: CatalogSnapshot): DatasetStats {
  const trackOf = new Map(catalog.tracks.map((t) => [t.id, t]));
  let seconds = 0;
  const era: Record<string, number> = {};
  for (const id of eligibility.audioTrackIds) {
    const track = trackOf.get(id)!;
    seconds += track.durationSec;
    const year = track.releaseYear === null ? 'unknown' : String(track.releaseYear);
    era[year] = (era[year] ?? 0) + 1;
  }
  const excludedMasters = zeroCounts();
  for (const reasons of eligibility.trackExclusions.values()) excludedMasters[reasons[0]] += 1;
  const excludedLyrics = zeroCounts();
  for (const reasons of eligibility.lyricExclusions.values()) excludedLyrics[reasons[0]] += 1;
  return {
    total_masters_eligible: eligibility.audioTrackIds.length,
    total_lyric_files: eligibility.lyricIds.length,
    total_hours_audio: Math.round((seconds / 3600) * 1000) / 1000,
    era_breakdown: Object.fromEntries(Object.entries(era).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    total_tracks: catalog.tracks.length,
    total_lyrics: catalog.lyrics.length,
    excluded_masters: excludedMasters,
    excluded_lyrics: excludedLyrics,
  };
}
