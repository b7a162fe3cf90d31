import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const NowPlayingCardSchema = Type.Object(
  {
    station_track_id: Type.String(),
    title: Type.String(),
    artist: Type.String({ description: 'station name for AI tracks, artist name for catalog tracks' }),
    is_ai_generated: Type.Boolean(),
    track_origin: StringEnum(['catalog', 'ai_generated']),
    genre: Type.String(),
    mood: Type.Array(Type.String()),
    duration_sec: Type.Integer(),
    elapsed_sec: Type.Integer(),
    cover_art_url: Nullable(Type.String({ format: 'uri' })),
    waveform_url: Nullable(Type.String({ format: 'uri' })),
    transparency: Type.Optional(
      Type.Object({
        model_version: Type.String(),
        influencing_genre: Type.String(),
        influencing_mood: Type.Array(Type.String()),
        lyrics_source: Nullable(Type.String()),
      }),
    ),
    started_at: Type.String({ format: 'date-time' }),
  },
  { title: 'NowPlayingCard' },
);

export const StreamInfoSchema = Type.Object(
  {
    stream_url: Type.String({ format: 'uri', description: 'one continuous audio/mpeg stream; carries a 12-hour listener ticket' }),
    stream_url_expires: Type.String({
      format: 'date-time',
      description: 'when the ticket stops opening streams (a stream already open plays on); ask stream-info again before then',
    }),
    hls_url: Type.String({
      format: 'uri',
      description: 'the same timeline as HLS: a media playlist (application/vnd.apple.mpegurl) of ~4 s MPEG audio segments; carries the same ticket',
    }),
    bitrate: Type.Integer({ description: 'kbps, follows stream_quality' }),
    format: Type.String(),
    listener_count: Type.Integer(),
    station_status: StringEnum(['on_air', 'off_air']),
    stream_quality: Type.String(),
    generation_mode: Type.String(),
    now_playing: Nullable(NowPlayingCardSchema),
    websocket_url: Type.String(),
  },
  { title: 'StreamInfo' },
);

export const QueueSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        position: Type.Integer(),
        track_origin: StringEnum(['catalog', 'ai_generated']),
        is_ai_generated: Type.Boolean(),
        title: Nullable(Type.String()),
        artist: Nullable(Type.String()),
        generation_status: Nullable(Type.String()),
        duration_sec: Type.Integer(),
      }),
      { maxItems: 5 },
    ),
  },
  { title: 'RadioQueue' },
);

export const HistorySchema = Type.Object(
  {
    data: Type.Array(
      Type.Composite([
        Type.Omit(NowPlayingCardSchema, ['elapsed_sec', 'started_at']),
        Type.Object({ played_at: Type.String({ format: 'date-time' }), session_id: Type.String(), replaced_reason: Nullable(Type.String()) }),
      ]),
      { maxItems: 20 },
    ),
    session_id: Nullable(Type.String()),
  },
  { title: 'RadioHistory' },
);

export const FeedbackBody = Type.Object(
  {
    station_track_id: Type.String({ minLength: 1, maxLength: 80 }),
    rating: StringEnum(['thumbs_up', 'thumbs_down']),
    flag_inappropriate: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false, title: 'ListenerFeedback' },
);

export const FeedbackAnswer = Type.Object({
  feedback_id: Type.String(),
  station_track_id: Type.String(),
  rating: Type.String(),
  flag_inappropriate: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});

export const NextTrackSchema = Type.Object(
  {
    track_id: Type.String(),
    title: Type.String(),
    artist: Type.String(),
    genre: Type.String(),
    duration_sec: Type.Integer(),
    stream_url: Type.String({ format: 'uri', description: 'signed CDN link to the master, 1 hour' }),
    stream_url_expires: Type.String({ format: 'date-time' }),
  },
  { title: 'SchedulerNextTrack' },
);
