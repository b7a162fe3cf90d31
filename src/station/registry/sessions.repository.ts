/**
 * Radio sessions seen from the audit trail: every session_id that appears on a registry record, a
 * generation or a play, with its aggregates. One SQL statement so the page and its totals agree; module E's
 * generations come in as its subqueries (GenerationSessions), not read here.
 */
import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';

/**
 * Module E's read port (src/station/generation/generation.repository.ts, which satisfies it): subqueries of its
 * generations, by radio session, for this repository's statement.
 */
export interface GenerationSessions {
  /** The ids of the sessions generations were made in (one column, session_id). */
  generationSessionIds(): SQLWrapper;
  /** Per session: session_id, complete, failed, first_at (first created), last_at (last activity). */
  sessionActivity(): SQLWrapper;
}

export interface SessionAggregate {
  sessionId: string;
  tracksGenerated: number;
  tracksPlayed: number;
  totalPlays: number;
  aiPlays: number;
  listenerHours: number;
  generationsComplete: number;
  generationsFailed: number;
  firstActivityAt: Date | null;
  lastActivityAt: Date | null;
}

interface SessionSqlRow {
  session_id: string;
  tracks_generated: number | string;
  tracks_played: number | string;
  total_plays: number | string;
  ai_plays: number | string;
  listener_seconds: number | string | null;
  generations_complete: number | string;
  generations_failed: number | string;
  first_activity: Date | string | null;
  last_activity: Date | string | null;
}

const asDate = (value: Date | string | null) => (value === null ? null : value instanceof Date ? value : new Date(value));

/** node-postgres and PGlite both answer `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export class SessionsRepository {
  constructor(
    private readonly db: Db,
    private readonly generations: GenerationSessions,
  ) {}

  async list(limit: number, offset: number): Promise<{ rows: SessionAggregate[]; total: number }> {
    const ids = sql`
      select session_id from registry_tracks where session_id is not null
      union ${this.generations.generationSessionIds()}
      union select session_id from station_plays where session_id is not null`;
    const page = await this.db.execute(sql`
      with ids as (${ids}),
      reg as (
        select session_id, count(*) as generated, count(*) filter (where playback_count > 0) as played,
               min(generated_at) as first_at, max(generated_at) as last_at
        from registry_tracks where session_id is not null group by session_id),
      gen as (${this.generations.sessionActivity()}),
      pl as (
        select session_id, count(*) as plays, count(*) filter (where origin = 'ai_generated') as ai_plays,
               sum(duration_sec::float8 * listener_count) as listener_seconds,
               min(started_at) as first_at, max(started_at + duration_sec * interval '1 second') as last_at
        from station_plays where session_id is not null group by session_id)
      select ids.session_id,
             coalesce(reg.generated, 0) as tracks_generated,
             coalesce(reg.played, 0) as tracks_played,
             coalesce(pl.plays, 0) as total_plays,
             coalesce(pl.ai_plays, 0) as ai_plays,
             coalesce(pl.listener_seconds, 0) as listener_seconds,
             coalesce(gen.complete, 0) as generations_complete,
             coalesce(gen.failed, 0) as generations_failed,
             least(reg.first_at, gen.first_at, pl.first_at) as first_activity,
             greatest(reg.last_at, gen.last_at, pl.last_at) as last_activity
      from ids
      left join reg on reg.session_id = ids.session_id
      left join gen on gen.session_id = ids.session_id
      left join pl on pl.session_id = ids.session_id
      order by last_activity desc nulls last, ids.session_id
      limit ${limit} offset ${offset}`);
    const [{ total }] = rowsOf<{ total: number | string }>(await this.db.execute(sql`select count(*) as total from (${ids}) as ids`));
    return {
      total: Number(total),
      rows: rowsOf<SessionSqlRow>(page).map((r) => ({
        sessionId: r.session_id,
        tracksGenerated: Number(r.tracks_generated),
        tracksPlayed: Number(r.tracks_played),
        totalPlays: Number(r.total_plays),
        aiPlays: Number(r.ai_plays),
        listenerHours: Number(r.listener_seconds ?? 0) / 3600,
        generationsComplete: Number(r.generations_complete),
        generationsFailed: Number(r.generations_failed),
        firstActivityAt: asDate(r.first_activity),
        lastActivityAt: asDate(r.last_activity),
      })),
    };
  }
}
