/**
 * GET /v1/admin/songwriters: songwriters with the ISRC of every track they are credited on, their split of it
 * (a songwriter with two roles on a track holds the sum), the track's total and whether it is the 100% the
 * database enforces, and their publishing rights: who holds them (the platform for its own songwriters, else
 * the named publisher, else the songwriter), the publisher and the performing rights organisation.
 */
import type { Page } from '../../pagination.js';
import type { CreditRow, SongwriterFilter, SongwriterRow } from '../catalog/songwriter-reads.js';

/** The catalog's read port (its module's `songwriterReads`, src/platform/catalog/songwriter-reads.ts): songwriters, tracks and credits are the catalog's. */
export interface SongwriterReads {
  list(filter: SongwriterFilter, page: { limit: number; offset: number }): Promise<{ rows: SongwriterRow[]; total: number }>;
  credits(songwriterIds: string[]): Promise<CreditRow[]>;
}

type TrackStatus = CreditRow['status'];

/** Credits listed per songwriter (the count says how many tracks in all). */
export const MAX_TRACKS_PER_SONGWRITER = 100;

interface TrackCredit {
  track_id: string;
  title: string;
  isrc: string | null;
  status: TrackStatus;
  roles: string[];
  split_pct: number;
  track_splits_total_pct: number;
  splits_valid: boolean;
}

/** A songwriter's credits, one entry per track, roles gathered and their splits summed. */
function trackCredits(credits: CreditRow[]): TrackCredit[] {
  const byTrack = new Map<string, TrackCredit>();
  for (const credit of credits) {
    const entry = byTrack.get(credit.trackId);
    if (entry) {
      entry.roles.push(credit.role);
      entry.split_pct = Math.round((entry.split_pct + credit.splitPct) * 100) / 100;
      continue;
    }
    byTrack.set(credit.trackId, {
      track_id: credit.trackId,
      title: credit.title,
      isrc: credit.isrc,
      status: credit.status,
      roles: [credit.role],
      split_pct: credit.splitPct,
      track_splits_total_pct: credit.trackTotalPct,
      splits_valid: credit.trackTotalPct === 100,
    });
  }
  return [...byTrack.values()];
}

function rightsHolder(row: SongwriterRow): 'platform' | 'publisher' | 'songwriter' {
  if (row.platformOwned) return 'platform';
  return row.publisher ? 'publisher' : 'songwriter';
}

export class SongwritersService {
  constructor(private readonly repo: SongwriterReads) {}

  async list(filter: SongwriterFilter, page: Page) {
    const { rows, total } = await this.repo.list(filter, page);
    const credits = await this.repo.credits(rows.map((row) => row.id));
    const data = rows.map((row) => {
      const tracks = trackCredits(credits.filter((c) => c.songwriterId === row.id));
      return {
        id: row.id,
        slug: row.slug,
        name: row.name,
        ipi: row.ipi,
        platform_owned: row.platformOwned,
        artist: row.artistId ? { id: row.artistId, slug: row.artistSlug!, name: row.artistName! } : null,
        publishing: { rights_holder: rightsHolder(row), publisher: row.publisher, pro: row.pro },
        track_count: row.trackCount,
        tracks_with_invalid_splits: tracks.filter((t) => !t.splits_valid).length,
        tracks: tracks.slice(0, MAX_TRACKS_PER_SONGWRITER),
      };
    });
    return { data, total, page: page.page, limit: page.limit };
  }
}
