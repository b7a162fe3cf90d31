/** The now-playing card (GET /radio/now-playing, the now_playing channel, station.track.now_playing). */
export interface TransparencySummary {
  model_version: string;
  influencing_genre: string;
  influencing_mood: string[];
  lyrics_source: string | null;
}

export interface NowPlayingCard {
  station_track_id: string;
  title: string;
  /** Station name for AI tracks, the artist's name for catalog tracks. */
  artist: string;
  is_ai_generated: boolean;
  track_origin: 'catalog' | 'ai_generated';
  genre: string;
  mood: string[];
  duration_sec: number;
  elapsed_sec: number;
  cover_art_url: string | null;
  waveform_url: string | null;
  /** Only for ai_generated tracks. */
  transparency?: TransparencySummary;
  /** When the track started for listeners (ISO 8601 UTC); lets clients compute elapsed time themselves. */
  started_at: string;
}

/** Published on every track change, to every instance; WebSocket clients get `{event, data, server_time_utc}`. */
export const NOW_PLAYING_CHANNEL = 'station.now_playing';
/** Each instance's own listener count, merged by every instance into the station's total. */
export const LISTENER_COUNTS_CHANNEL = 'station.listener_counts';
/** Radio on/off and config changes: tells the scheduler leader to act now rather than at its next cycle. */
export const RADIO_CONTROL_CHANNEL = 'station.radio_control';

/** What module A's status needs to know about the radio. The scheduler implements it. */
export interface RadioStatus {
  currentTrack(): Promise<{ station_track_id: string; track_origin: 'catalog' | 'ai_generated'; title: string; progress_pct: number } | null>;
  queueDepth(): Promise<number>;
  listenerCount(): Promise<number>;
  fallbackActive(): Promise<boolean>;
}
/** Multi-instance on Redis: the leader's encoded stream, tick by tick, for followers to serve (stream/live-stream.ts). */
export const STREAM_RELAY_CHANNEL = 'station.stream_frames';
