/** Module D's request and response shapes. */
import { Type } from '@sinclair/typebox';
import { Paginated, StringEnum } from '../../http/schemas.js';
import { TEMPO_MAX_BPM, TEMPO_MIN_BPM, TIMES_OF_DAY } from './context.service.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const Bpm = Type.Integer({ minimum: TEMPO_MIN_BPM, maximum: TEMPO_MAX_BPM });
const fields = {
  genre: Type.String({ minLength: 1, maxLength: 60 }),
  subgenre: Type.String({ maxLength: 60 }),
  mood: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { minItems: 1, maxItems: 8 }),
  lifestyle: StringEnum(['focus', 'party', 'chill', 'workout', 'sleep']),
  tempo_range: Type.Tuple([Bpm, Bpm], { description: `[min, max] BPM, ${TEMPO_MIN_BPM} to ${TEMPO_MAX_BPM}, min <= max` }),
  key_preference: StringEnum(['major', 'minor', 'any']),
  energy_level: Type.Number({ minimum: 0, maximum: 1 }),
  time_of_day: StringEnum(TIMES_OF_DAY, {
    description: 'Part of day by server time (UTC): night 00-06, morning 06-12, afternoon 12-18, evening 18-24',
  }),
  auto_rotate: Type.Boolean({ description: 'shift automatically every STATION_CONTEXT_ROTATION_SEC (default 30 minutes)' }),
};

export const ContextView = Type.Object(
  {
    context_id: Type.String(),
    genre: fields.genre,
    subgenre: Type.String(),
    mood: Type.Array(Type.String()),
    lifestyle: fields.lifestyle,
    tempo_range: Type.Tuple([Type.Integer(), Type.Integer()]),
    key_preference: fields.key_preference,
    energy_level: Type.Number(),
    time_of_day: fields.time_of_day,
    active_since: Type.String({ format: 'date-time' }),
    auto_rotate: Type.Boolean(),
    next_rotation: Nullable(Type.String({ format: 'date-time', description: 'null when auto_rotate is off' })),
  },
  { title: 'Context' },
);

export const ContextPatchBody = Type.Object(
  {
    genre: Type.Optional(fields.genre),
    subgenre: Type.Optional(fields.subgenre),
    mood: Type.Optional(fields.mood),
    lifestyle: Type.Optional(fields.lifestyle),
    tempo_range: Type.Optional(fields.tempo_range),
    key_preference: Type.Optional(fields.key_preference),
    energy_level: Type.Optional(fields.energy_level),
    time_of_day: Type.Optional({ ...fields.time_of_day, description: 'overrides the server-time value until the next rotation' }),
    auto_rotate: Type.Optional(fields.auto_rotate),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    title: 'ContextOverride',
    description:
      'Fields to override. Creates a new current context (the previous one stays in the history) that the very next ' +
      'generation uses; with auto_rotate on, the next rotation is one period from now.',
  },
);

export const PresetBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80, description: 'unique' }),
    genre: fields.genre,
    subgenre: Type.Optional(fields.subgenre),
    mood: fields.mood,
    lifestyle: fields.lifestyle,
    tempo_range: fields.tempo_range,
    key_preference: Type.Optional(fields.key_preference),
    energy_level: fields.energy_level,
    time_of_day: Type.Optional(Nullable({ ...fields.time_of_day, description: 'the part of day the preset suits; auto-rotation picks it then' })),
    auto_rotate: Type.Optional(Type.Boolean({ default: true, description: 'whether the context keeps rotating after this preset is activated' })),
    context_id: Type.Optional(Type.String({ description: 'ignored (a current context can be saved as a preset as it is)' })),
    active_since: Type.Optional(Type.String({ description: 'ignored' })),
    next_rotation: Type.Optional(Nullable(Type.String({ description: 'ignored' }))),
  },
  { additionalProperties: false, title: 'ContextPresetCreate' },
);

export const PresetView = Type.Object(
  {
    preset_id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    genre: Type.String(),
    subgenre: Type.String(),
    mood: Type.Array(Type.String()),
    lifestyle: fields.lifestyle,
    tempo_range: Type.Tuple([Type.Integer(), Type.Integer()]),
    key_preference: fields.key_preference,
    energy_level: Type.Number(),
    time_of_day: Nullable(fields.time_of_day),
    auto_rotate: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'ContextPreset' },
);

export const PresetPage = Paginated(PresetView, 'ContextPresetPage');

const HistoryItem = Type.Object(
  {
    ...ContextView.properties,
    source: StringEnum(['initial', 'override', 'preset', 'rotation'], { description: 'what made this context current' }),
    preset_id: Nullable(Type.String()),
    preset_name: Nullable(Type.String()),
    time_of_day_override: Type.Boolean(),
    active_until: Nullable(Type.String({ format: 'date-time', description: 'null for the current context' })),
    generation_count: Type.Integer(),
    sessions: Type.Array(
      Type.Object({
        session_id: Nullable(Type.String({ description: 'null groups generations made outside a radio session' })),
        generation_count: Type.Integer(),
        first_generation_at: Type.String({ format: 'date-time' }),
        last_generation_at: Type.String({ format: 'date-time' }),
      }),
    ),
  },
  { title: 'ContextHistoryEntry' },
);

export const HistoryPage = Paginated(HistoryItem, 'ContextHistoryPage');
