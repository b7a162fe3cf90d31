/** Module I response shapes. */
import { Type } from '@sinclair/typebox';
import { ChainHead, InfluencedBy } from '../registry/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const DatasetSummary = Type.Object({
  dataset_hash: Type.String(),
  model_version: Nullable(Type.String()),
  items: Nullable(Type.Integer({ description: 'training items (no raw data)' })),
  platform_owned_items: Nullable(Type.Integer()),
  other_items: Nullable(Type.Integer()),
  verified: Type.Boolean({ description: 'true when the dataset was re-read and every item checked against the catalog' }),
});

export const TrackTransparency = Type.Object(
  {
    station_track_id: Type.String(),
    is_ai_generated: Type.Literal(true),
    track_origin: Type.Literal('ai_generated'),
    title: Type.String(),
    model_version: Type.String(),
    training_data_source: Type.String(),
    influencing_genre: Type.String(),
    influencing_mood: Type.Array(Type.String()),
    influencing_lifestyle: Nullable(Type.String()),
    lyrics_source: Nullable(Type.String({ description: 'null for an instrumental' })),
    lyrics_model_version: Nullable(Type.String()),
    lyrics: Nullable(
      Type.Object(
        {
          language: Type.String(),
          sections: Type.Array(Type.Object({ name: Type.String(), text: Type.String() }), { description: 'in the order they are sung, repeats included' }),
        },
        { description: 'the words of the track; null for an instrumental' },
      ),
    ),
    no_third_party_content: Type.Boolean(),
    generated_at: Type.String({ format: 'date-time' }),
    policy_url: Type.String({ format: 'uri' }),
    radio_only: Type.Boolean(),
    withheld: Type.Boolean({
      description: 'withheld from playback: blocked by the safety filter, flagged by an admin, or reported by enough listeners, pending review',
    }),
    training_dataset_summary: Type.Object({
      audio: DatasetSummary,
      lyrics: Nullable(DatasetSummary),
      sources: Type.Object({ audio: Type.String(), lyrics: Type.String() }),
    }),
    influenced_by: InfluencedBy,
    ai_label: Type.Object({
      carried_in: Type.String(),
      digital_source_type: Type.String({ description: 'IPTC digital source type' }),
      track_origin: Type.Literal('ai_generated'),
      station: Type.String(),
      model_version: Type.String(),
      station_track_id: Type.String(),
    }),
  },
  { title: 'TrackTransparency' },
);

const Statements = Type.Record(Type.String(), Type.String());

export const StationTransparency = Type.Object(
  {
    station: Type.String(),
    system_description: Type.String(),
    legal_compliance: Statements,
    total_ai_tracks_generated: Type.Integer(),
    total_ai_tracks_played: Type.Integer({ description: 'distinct AI tracks played at least once' }),
    total_ai_plays: Type.Integer({ description: 'sum of AI playback counts' }),
    training_data_policy: Statements,
    current_models: Type.Array(
      Type.Object({
        model_type: Type.String(),
        version: Type.String(),
        dataset_hash: Type.String(),
        deployed_at: Nullable(Type.String({ format: 'date-time' })),
      }),
    ),
    registry_chain_head: Type.Composite([ChainHead], {
      description:
        "The registry's hash chain head when this statement was made. Keep it: GET /station/v1/registry/chain/verify?anchor_seq=&anchor_hash= " +
        '(or a recomputation over an audit export) shows whether the chain still passes through it, so a later rewrite is detectable against any copy.',
    }),
    policy_url: Type.String({ format: 'uri' }),
    as_of: Type.String({ format: 'date-time' }),
  },
  { title: 'StationTransparency' },
);
