/**
 * The registry's audit side: the chain head (an anchor anyone can keep: it is published in the station's
 * transparency statement and in every export), a full re-verification of every hash and link, optionally
 * against a kept anchor, and the audit export. Verification and export read the chain a page at a time up
 * to the head seen when they started, so memory stays flat however long the registry grows and records
 * appended meanwhile do not change the answer.
 */
import { Errors } from '../../errors.js';
import type { Clock } from '../../infra/clock/clock.js';
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

/**
 * Cells a spreadsheet would read as a formula (or that start with a control character some of them strip):
 * OWASP's CSV injection list. Such a cell gets a leading single quote, in CSV only.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 field: formula-like text neutralised; quoted when it holds a comma, quote, CR or LF; quotes doubled. Objects as JSON. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const raw = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The chain head as published (transparency, exports): an anchor anyone can keep to detect a later rewrite. */
export interface ChainHead {
  seq: number | null;
  record_hash: string;
  count: number;
  computed_at: string;
}

export interface ChainAnchor {
  seq: number;
  record_hash: string;
}

/** The anchor of a verify query: both parts or neither. */
export function anchorOf(query: { anchor_seq?: number; anchor_hash?: string }): ChainAnchor | null {
  if (query.anchor_seq === undefined && query.anchor_hash === undefined) return null;
  if (query.anchor_seq === undefined || query.anchor_hash === undefined) throw Errors.validation('anchor_seq and anchor_hash go together');
  return { seq: query.anchor_seq, record_hash: query.anchor_hash };
}

type InvalidReason = 'record_hash_mismatch' | 'prev_hash_mismatch' | 'anchor_mismatch';

export interface ChainVerification {
  valid: boolean;
  checked: number;
  head: { seq: number; record_hash: string } | null;
  anchor: (ChainAnchor & { matches: boolean }) | null;
  first_invalid: { seq: number; station_track_id: string | null; reason: InvalidReason; detail: string } | null;
}

/** First cell of the CSV export's last row, which carries the chain head the export was cut at. */
export const CSV_HEAD_MARKER = '#chain_head';

export interface AuditExport {
  head: ChainHead;
  chunks: AsyncGenerator<string>;
}

export class ChainAuditService {
  constructor(
    private readonly repo: Pick<RegistryRepository, 'head' | 'headWithCount' | 'pageAfter'>,
    private readonly clock: Clock,
  ) {}

  async head(): Promise<ChainHead> {
    const head = await this.repo.headWithCount();
    return { seq: head?.seq ?? null, record_hash: head?.recordHash ?? GENESIS_HASH, count: head?.count ?? 0, computed_at: this.clock.date().toISOString() };
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
   * place fails its own hash; a record removed, inserted or reordered breaks the next link. With an
   * anchor (a head published earlier and kept by someone else), the record at the anchor's seq must still
   * carry the anchor's hash: a chain rewritten from some record on, every hash recomputed, passes the
   * other checks but not this one.
   */
  async verify(anchor: ChainAnchor | null = null, pageSize = CHAIN_PAGE_SIZE): Promise<ChainVerification> {
    const head = await this.repo.head();
    const headView = head ? { seq: head.seq, record_hash: head.recordHash } : null;
    let expectedPrev = GENESIS_HASH;
    let checked = 0;
    let anchorSeen = false;
    const result = (first_invalid: ChainVerification['first_invalid'], anchorMatches: boolean): ChainVerification => ({
      valid: first_invalid === null,
      checked,
      head: headView,
      anchor: anchor ? { ...anchor, matches: anchorMatches } : null,
      first_invalid,
    });
    for await (const page of this.walk(head?.seq ?? 0, {}, pageSize)) {
      for (const row of page) {
        checked += 1;
        const invalid = (reason: InvalidReason, detail: string) => result({ seq: row.seq, station_track_id: row.stationTrackId, reason, detail }, false);
        if (row.prevHash !== expectedPrev) {
          return invalid('prev_hash_mismatch', "prev_hash is not the previous record's record_hash: a record was removed, inserted or reordered");
        }
        if (recordHash(row) !== row.recordHash) {
          return invalid('record_hash_mismatch', 'the record no longer hashes to its record_hash: its content was changed');
        }
        if (anchor && row.seq === anchor.seq) {
          anchorSeen = true;
          if (row.recordHash !== anchor.record_hash) {
            return invalid(
              'anchor_mismatch',
              "the record at the anchor's seq no longer has the anchor's record_hash: the chain was rewritten after that head was published",
            );
          }
        }
        expectedPrev = row.recordHash;
      }
    }
    if (anchor && !anchorSeen) {
      return result(
        {
          seq: anchor.seq,
          station_track_id: null,
          reason: 'anchor_mismatch',
          detail: "no record has the anchor's seq: records published in that head are gone",
        },
        false,
      );
    }
    return result(null, anchor !== null);
  }

  /**
   * The audit log cut at the chain head read first: records up to that head's seq only (appends made
   * meanwhile are left out; a record's hashed content never changes), streamed a page at a time so memory
   * stays flat. The head travels inside the file: JSON `{"chain_head": ..., "records": [...]}`, NDJSON a
   * final `{"chain_head": ...}` line, CSV a final row `#chain_head,<seq>,<record_hash>,<count>,<computed_at>`
   * padded to the header's width.
   */
  async export(format: ExportFormat, range: GeneratedRange = {}): Promise<AuditExport> {
    const head = await this.head();
    return { head, chunks: this.exportChunks(format, range, head) };
  }

  private async *exportChunks(format: ExportFormat, range: GeneratedRange, head: ChainHead): AsyncGenerator<string> {
    if (format === 'csv') yield csvLine([...AUDIT_COLUMNS]);
    if (format === 'json') yield `{"chain_head":${JSON.stringify(head)},"records":[`;
    let first = true;
    for await (const page of this.walk(head.seq ?? 0, range)) {
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
    if (format === 'json') yield '\n]}\n';
    if (format === 'ndjson') yield `${JSON.stringify({ chain_head: head })}\n`;
    if (format === 'csv') {
      const trailer = [CSV_HEAD_MARKER, head.seq ?? 0, head.record_hash, head.count, head.computed_at];
      yield csvLine([...trailer, ...new Array(AUDIT_COLUMNS.length - trailer.length).fill(null)]);
    }
  }
}
