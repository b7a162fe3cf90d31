/** The station API's admin-side shapes the panel reads (GET /openapi.json has them all). */

export interface Permissions {
  can_train: boolean;
  can_generate: boolean;
  can_toggle_radio: boolean;
  scopes: string[];
  role: string | null;
}

export interface StationConfig {
  radio_enabled: boolean;
  generation_mode: 'catalog_only' | 'ai_only' | 'hybrid';
  catalog_ratio: number;
  ai_generation_ratio: number;
  lyrics_generation: boolean;
  explicit_allowed: boolean;
  max_track_length_sec: number;
  generation_lead_time: number;
  fallback_mode: 'catalog_only' | 'hybrid';
  stream_quality: '128kbps' | '192kbps' | '320kbps';
  crossfade_sec: number;
  report_threshold: number;
}

export interface StationStatus {
  radio_enabled: boolean;
  uptime_seconds: number;
  listener_count: number;
  current_track: { station_track_id: string; track_origin: string; title: string; progress_pct: number } | null;
  queue_depth: number;
  training_status: string;
  model_version: string | null;
  lyrics_model_version: string | null;
  safety_status: string;
  safety_flags_24h: number;
  ml_service_health: string;
  generation_queue_depth: number;
  generation_mode: string;
  fallback_active: boolean;
  radio_changed_at: string | null;
  disabled_reason: string | null;
}

export interface RegistryRecord {
  station_track_id: string;
  generation_id: string;
  session_id: string | null;
  model_version: string;
  lyrics_model_version: string | null;
  generated_at: string;
  first_played_at: string | null;
  playback_count: number;
  reuse_eligible: boolean;
  flag_for_review: boolean;
  withheld: boolean;
  withheld_reason: string | null;
  listener_reports: number;
  safety_score: number;
  title: string;
  genre: string;
  mood: string[];
  duration_sec: number;
  seq: number;
  record_hash: string;
}

export interface LossPoint {
  epoch: number;
  loss: number;
  held_out_loss: number | null;
  perplexity: number | null;
}

export interface TrainingJob {
  job_id: string;
  model_type: 'audio' | 'lyrics' | 'style_embedding';
  status: 'queued' | 'running' | 'paused' | 'completed' | 'failed';
  current_epoch: number;
  total_epochs: number;
  progress_pct: number;
  current_loss: number | null;
  perplexity: number | null;
  eta_seconds: number | null;
  dataset_snapshot_id: string;
  pause_requested: boolean;
  model_version_draft: string | null;
  model_id: string | null;
  error_message: string | null;
  created_at: string;
  loss_curve?: LossPoint[];
}

export interface TrainingEpochMessage {
  event: 'training_epoch';
  job_id: string;
  epoch: number;
  loss: number;
  perplexity: number | null;
}

export interface ModelVersion {
  model_id: string;
  version: string;
  model_type: string;
  status: 'production' | 'ready' | 'retired';
  metrics: Record<string, unknown>;
  lineage: Record<string, unknown>;
  dataset_hash: string;
  created_at: string;
  deployed_at: string | null;
}

export interface Snapshot {
  snapshot_id: string;
  name: string;
  description: string;
  dataset_hash: string;
  created_at: string;
  item_counts: { audio: number; lyrics: number };
  training_runs: Array<{ job_id: string; model_type: string; status: string }>;
}

export interface Generation {
  generation_id: string;
  status: 'pending' | 'in_progress' | 'complete' | 'failed' | 'cancelled';
  progress_pct: number;
  eta_seconds: number | null;
  station_track_id: string | null;
  error: { code: string; message: string } | null;
  duration_ms?: number | null;
  title?: string | null;
  stream_url?: string;
  created_at: string;
}

export interface GenerationProgressMessage {
  event: 'generation_progress';
  generation_id: string;
  progress_pct: number;
  eta_seconds: number;
}

export interface SessionStats {
  session_id: string;
  tracks_generated: number;
  tracks_played: number;
  total_plays: number;
  ai_plays: number;
  listener_hours: number;
  generation_success_rate: number | null;
  generations_complete: number;
  generations_failed: number;
  last_activity_at: string | null;
}
