/** Module F's request and answer shapes (served under the generation tag: /station/v1/generate/lyrics). */
import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const LyricsRequestBody = Type.Object(
  {
    mood: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { minItems: 1, maxItems: 8 }),
    theme: Type.String({ minLength: 1, maxLength: 120 }),
    language: Type.String({ pattern: '^[a-z]{2}$', description: 'ISO 639-1' }),
    structure: Type.Optional(Type.String({ pattern: '^[a-z]+(-[a-z]+)*$', maxLength: 200, examples: ['verse-chorus-verse-chorus-bridge-chorus'] })),
    style_artist_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 120 }), { maxItems: 5 })),
    model_version: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 120 }))),
    generation_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'the audio generation these lyrics belong to' }))),
    seed: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2147483646 }))),
  },
  { additionalProperties: false, title: 'LyricsRequest' },
);

const Verdict = {
  safety_score: Type.Number({ minimum: 0, maximum: 1, description: 'at least 0.80 for playback' }),
  explicit_detected: Type.Boolean(),
  flagged_categories: Type.Array(Type.String()),
  playable: Type.Boolean(),
};

export const LyricsView = Type.Object(
  {
    lyric_id: Type.String(),
    status: StringEnum(['pending', 'in_progress', 'complete', 'failed', 'cancelled'], {
      description: 'complete for lyrics answered at once (201); pending (202) while they wait for the first lyrics model to be deployed',
    }),
    eta_seconds: Nullable(Type.Integer({ description: 'pending: estimated seconds until the lyrics are generated; null when unknown' })),
    theme: Type.String(),
    language: Type.String(),
    mood: Type.Array(Type.String()),
    model_version: Nullable(Type.String({ description: 'null while pending' })),
    generation_id: Nullable(Type.String()),
    title: Nullable(Type.String()),
    structure: Nullable(Type.Record(Type.String(), Type.String(), { description: 'section key (verse_1, chorus, ...) to text; null while pending' })),
    order: Type.Array(Type.String(), { description: 'section keys in singing order, repeats included' }),
    safety_score: Nullable(Verdict.safety_score),
    explicit_detected: Nullable(Verdict.explicit_detected),
    flagged_categories: Verdict.flagged_categories,
    playable: Verdict.playable,
    error: Type.Optional(Nullable(Type.Object({ code: Type.String(), message: Type.String() }))),
    safety_checked_at: Nullable(Type.String({ format: 'date-time' })),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Lyrics' },
);

export const SafetyCheckView = Type.Object(
  { lyric_id: Type.String(), ...Verdict, checked_at: Type.String({ format: 'date-time' }), explicit_allowed: Type.Boolean() },
  { title: 'LyricsSafetyCheck' },
);
