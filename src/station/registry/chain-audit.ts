/**
 * The registry's audit side: the chain head (an anchor an auditor can keep), a full re-verification of
 * every hash and link, and the audit export. Verification and export read the chain a page at a time up
 * to the head seen when they started, so memory stays flat however long the registry grows and records
 * appended meanwhile do not change the answer.
 */
import { GENESIS_HASH, hashedContent, recordHash } from './hash-chain.js';
import type { GeneratedRange, RegistryRepository, RegistryRow } from './registry.repository.js';

export const CHAIN_PAGE_SIZE = 500;

export type ExportFormat = 'json' | 'csv' | 'ndjson';

/** Every stored field, in the order a CSV shows them; enough to recompute each record_hash. */
export const AUDIT_COLUMNS = [
  'seq',
  'station_track_id',
  'generation_id',
  'track_type',
  'session_id',
  'radio_only',
  'model_version',
  'lyrics_model_version',
  'training_dataset_hash',
  'context_snapshot',
  'title',
  'genre',
  'mood',
  'bpm',
  'duration_sec',
  'audio_blob_key',
  'audio_sha256',
  'waveform_blob_key',
  'cover_blob_key',
  'lyric_id',
  'influenced_by',
  'safety_score',
  'generated_at',
  'prev_hash',
  'record_hash',
  'first_played_at',
  'playback_count',
  'reuse_eligible',
  'flag_for_review',
] as const;

export type AuditRow = Record<(typeof AUDIT_COLUMNS)[number], unknown>;

export function auditRow(row: RegistryRow): AuditRow {
  return {
    seq: row.seq,
    ...hashedContent(row),
    record_hash: row.recordHash,
    first_played_at: row.firstPlayedAt ? row.firstPlayedAt.toISOString() : null,
    playback_count: row.playbackCount,
    reuse_eligible: row.reuseEligible,
    flag_for_review: row.flagForReview,
  } as AuditRow;
}

/** One RFC 4180 field: quoted when it holds a comma, quote, CR or LF; quotes doubled. Objects as JSON. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export interface ChainHead {
  seq: number | null;
  record_hash: string;
  count: number;
}

export interface ChainVerification {
  valid: boolean;
  checked: number;
  head: { seq: number; record_hash: string } | null;
  first_invalid: { seq: number; station_track_id: string; reason: 'record_hash_mismatch' | 'prev_hash_mismatch'; detail: string } | null;
}

export class ChainAuditService {
  constructor(private readonly repo: Pick<RegistryRepository, 'head' | 'count' | 'pageAfter'>) {}

  async head(): Promise<ChainHead> {
    const [head, count] = await Promise.all([this.repo.head(), this.repo.count()]);
    return { seq: head?.seq ?? null, record_hash: head?.recordHash ?? GENESIS_HASH, count };
  }

  /** Records from the start of the chain up to `untilSeq` (a head seen earlier), a page at a time. */
  private async *walk(untilSeq: number, range: GeneratedRange = {}, pageSize = CHAIN_PAGE_SIZE): AsyncGenerator<RegistryRow[]> {
    let after = 0;
    for (;;) {
      const page = await this.repo.pageAfter(after, pageSize, { ...range, untilSeq });
      if (page.length === 0) return;
      yield page;
      after = page[page.length - 1].seq;
      if (page.length < pageSize) return;
    }
  }

  /**
   * Recomputes every record_hash and checks every prev_hash link, in chain order. A record edited in
   * place fails its own hash; a record removed, inserted or reordered breaks the next link.
   */
  async verify(pageSize = CHAIN_PAGE_SIZE): Promise<ChainVerification> {
    const head = await this.repo.head();
    let expectedPrev = GENESIS_HASH;
    let checked = 0;
    for await (const page of this.walk(head?.seq ?? 0, {}, pageSize)) {
      for (const row of page) {
        checked += 1;
        const invalid = (reason: 'record_hash_mismatch' | 'prev_hash_mismatch', detail: string) => ({
          valid: false,
          checked,
          head: head ? { seq: head.seq, record_hash: head.recordHash } : null,
          first_invalid: { seq: row.seq, station_track_id: row.stationTrackId, reason, detail },
        });
        if (row.prevHash !== expectedPrev) {
          return invalid('prev_hash_mismatch', 'prev_hash is not the previous record\'s record_hash: a record was removed, inserted or reordered');
        }
        if (recordHash(row) !== row.recordHash) {
          return invalid('record_hash_mismatch', 'the record no longer hashes to its record_hash: its content was changed');
        }
        expectedPrev = row.recordHash;
      }
    }
    return { valid: true, checked, head: head ? { seq: head.seq, record_hash: head.recordHash } : null, first_invalid: null };
  }

  /**
   * The audit log as text chunks (one per page): a JSON array, NDJSON, or CSV with a header row.
   * Pipe it to the response; nothing beyond one page is held in memory. Stops at `untilSeq` (default: the head now).
   */
  async *export(format: ExportFormat, range: GeneratedRange = {}, untilSeq?: number): AsyncGenerator<string> {
    const until = untilSeq ?? (await this.repo.head())?.seq ?? 0;
    if (format === 'csv') yield csvLine([...AUDIT_COLUMNS]);
    if (format === 'json') yield '[';
    let first = true;
    for await (const page of this.walk(until, range)) {
      let chunk = '';
      for (const row of page) {
        const record = auditRow(row);
        if (format === 'csv') chunk += csvLine(AUDIT_COLUMNS.map((column) => record[column]));
        else if (format === 'ndjson') chunk += `${JSON.stringify(record)}\n`;
        else {
          chunk += `${first ? '\n' : ',\n'}${JSON.stringify(record)}`;
          first = false;
        }
      }
      yield chunk;
    }
    if (format === 'json') yield '\n]\n';
  }
}
