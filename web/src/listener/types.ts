/** The listener API's shapes the player reads (GET /openapi.json: NowPlayingCard, StreamInfo, ...). */

// The card's shape is the server's own (a type-only import: nothing of the server reaches the bundle).
import type { NowPlayingCard } from '../../../src/station/events/now-playing.js';
export type { NowPlayingCard };

export interface NowPlayingMessage {
  event: 'now_playing';
  data: NowPlayingCard;
  server_time_utc: string;
}

export interface ListenerCountMessage {
  event: 'listener_count';
  count: number;
  peak_today: number;
}

export interface StreamInfo {
  stream_url: string;
  stream_url_expires: string;
  /** The same timeline as HLS (the player prefers it); absent from a server without HLS. */
  hls_url?: string;
  bitrate: number;
  format: string;
  listener_count: number;
  station_status: 'on_air' | 'off_air';
  stream_quality: string;
  generation_mode: string;
  now_playing: NowPlayingCard | null;
  websocket_url: string;
}

export interface QueueItem {
  position: number;
  track_origin: 'catalog' | 'ai_generated';
  is_ai_generated: boolean;
  title: string | null;
  artist: string | null;
  generation_status: string | null;
  duration_sec: number;
}

export interface HistoryItem extends Omit<NowPlayingCard, 'elapsed_sec' | 'started_at'> {
  played_at: string;
  session_id: string;
  replaced_reason: string | null;
}

interface DatasetSummary {
  dataset_hash: string;
  model_version: string | null;
  items: number | null;
  platform_owned_items: number | null;
  other_items: number | null;
  verified: boolean;
}

export interface TrackTransparency {
  station_track_id: string;
  title: string;
  model_version: string;
  training_data_source: string;
  influencing_genre: string;
  influencing_mood: string[];
  influencing_lifestyle: string | null;
  lyrics_source: string | null;
  lyrics_model_version: string | null;
  /** The words in the order they are sung; null for an instrumental. */
  lyrics: { language: string; sections: Array<{ name: string; text: string }> } | null;
  no_third_party_content: boolean;
  generated_at: string;
  policy_url: string;
  radio_only: boolean;
  withheld: boolean;
  training_dataset_summary: { audio: DatasetSummary; lyrics: DatasetSummary | null; sources: { audio: string; lyrics: string } };
  influenced_by: Array<{ track_id: string; title: string; artist: string; similarity: number }>;
}

export interface ListenerUser {
  id: string;
  email: string;
  role: string;
  display_name: string;
}

/** GET /v1/users/me, the fields the page shows. */
export interface CurrentUser {
  id: string;
  email: string;
  email_verified: boolean;
  display_name: string;
}
