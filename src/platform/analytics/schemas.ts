/** The analytics routes' shapes: each validates its route, types its handler and documents it in /openapi.json. */
import { Type } from '@fastify/type-provider-typebox';
import { Nullable, StringEnum } from '../../http/schemas.js';
import { AGE_BANDS } from './analytics.repository.js';
import { DEVICE_CLASSES } from './device-class.js';
import { DEFAULT_RANGE_DAYS, GRANULARITIES, MAX_BUCKETS, MAX_RANGE_DAYS } from './period.js';

const Instant = (text: string) => Type.String({ minLength: 10, maxLength: 40, description: text });

export const PERIOD_NOTE =
  `All times UTC. \`from\` is inclusive (a date means its 00:00); \`to\` is exclusive, but a date means the end of that day. ` +
  `Defaults: \`to\` now, \`from\` ${DEFAULT_RANGE_DAYS} days before. \`to\` before \`from\`, a period over ${MAX_RANGE_DAYS} days ` +
  `or over ${MAX_BUCKETS} buckets answer 400 PLATFORM_VALIDATION_FAILED. Buckets start at date_trunc of the granularity ` +
  '(weeks on Monday) and count only what happened inside the period. Plays are play events: a listener’s on-demand stream ' +
  '(GET /v1/tracks/{id}/stream) or a radio airing of a catalog track; the sandbox records no plays, so a test key sees zeros.';

const periodFields = {
  from: Type.Optional(Instant('start, inclusive: 2026-03-01 or 2026-03-01T12:00:00Z')),
  to: Type.Optional(Instant('end: a date-time is exclusive, a date includes that whole day')),
};

export const PeriodQuery = Type.Object(
  { ...periodFields, granularity: Type.Optional(StringEnum(GRANULARITIES, { default: 'day' })) },
  { additionalProperties: false },
);

export const StreamsQuery = Type.Object(
  {
    ...periodFields,
    granularity: Type.Optional(StringEnum(GRANULARITIES, { default: 'day' })),
    artist: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'only this artist’s tracks (slug or id)' })),
  },
  { additionalProperties: false },
);

export const TopQuery = Type.Object(
  { ...periodFields, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })) },
  { additionalProperties: false },
);

export const RangeQuery = Type.Object(periodFields, { additionalProperties: false });

const counts = {
  streams: Type.Integer({ description: 'play events' }),
  radio: Type.Integer({ description: 'radio airings of catalog tracks' }),
  on_demand: Type.Integer({ description: 'listeners’ on-demand streams' }),
  listeners: Type.Integer({ description: 'distinct listeners among the on-demand plays' }),
};
export const StreamCounts = Type.Object(counts, { title: 'StreamCounts' });

const periodEcho = {
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  granularity: StringEnum(GRANULARITIES),
};

const StreamSeries = Type.Array(Type.Object({ period_start: Type.String({ format: 'date-time' }), ...counts }));

export const StreamsReport = Type.Object(
  {
    ...periodEcho,
    artist: Type.Union([Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() }), Type.Null()]),
    total: StreamCounts,
    series: StreamSeries,
  },
  { title: 'StreamsReport' },
);

const Geography = Type.Array(
  Type.Object({
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2 from the listener’s profile at the play; null when unset' })),
    users: Type.Integer(),
    plays: Type.Integer(),
  }),
);

const Devices = Type.Array(
  Type.Object({
    device: StringEnum(DEVICE_CLASSES),
    users: Type.Integer(),
    plays: Type.Integer(),
    share: Type.Number({ description: 'of the listeners’ plays, 0 to 1' }),
  }),
);

const activity = {
  daily_active_users: Type.Integer({ description: 'listeners with a play in the 24 hours before `to`' }),
  monthly_active_users: Type.Integer({ description: 'listeners with a play in the 30 days before `to`' }),
  active_users: Type.Integer({ description: 'listeners with a play in the period' }),
};

export const AudienceReport = Type.Object(
  {
    ...periodEcho,
    ...activity,
    series: Type.Array(Type.Object({ period_start: Type.String({ format: 'date-time' }), active_users: Type.Integer() })),
    demographics: Type.Object({
      age: Type.Array(Type.Object({ band: StringEnum(AGE_BANDS), users: Type.Integer() }), {
        description: 'active listeners by age (birth year of their profile, as of the year of `to`)',
      }),
    }),
    geography: Geography,
    devices: Devices,
  },
  { title: 'AudienceReport' },
);

const Revenue = Type.Object(
  {
    currency: Type.String(),
    orders: Type.Integer(),
    gross_cents: Type.Integer(),
    platform_fee_cents: Type.Integer(),
    artist_share_cents: Type.Integer(),
  },
  { title: 'RevenueAmount' },
);

export const RevenueReport = Type.Object(
  {
    ...periodEcho,
    environment: StringEnum(['live', 'test'] as const, { description: 'test: sandbox orders (a test key)' }),
    totals: Type.Array(Revenue, { description: 'per currency; amounts in different currencies are never added' }),
    series: Type.Array(Type.Object({ period_start: Type.String({ format: 'date-time' }), orders: Type.Integer(), amounts: Type.Array(Revenue) })),
  },
  { title: 'RevenueReport' },
);

const TrackRef = Type.Object({ id: Type.String(), title: Type.String(), artist_id: Type.String(), artist_slug: Type.String(), artist: Type.String() });
const ArtistRef = Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() });
const topEcho = { from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }), total: Type.Integer() };

export const TopTracks = Type.Object(
  { ...topEcho, data: Type.Array(Type.Object({ rank: Type.Integer(), track: TrackRef, ...counts })) },
  { title: 'TopTracks' },
);

export const TopArtists = Type.Object(
  {
    ...topEcho,
    data: Type.Array(Type.Object({ rank: Type.Integer(), artist: ArtistRef, ...counts, tracks: Type.Integer({ description: 'distinct tracks played' }) })),
  },
  { title: 'TopArtists' },
);

export const ArtistReport = Type.Object(
  {
    artist: Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String(), followers: Type.Integer() }),
    ...periodEcho,
    streams: Type.Object({ total: StreamCounts, series: StreamSeries }),
    audience: Type.Object({ geography: Geography, devices: Devices }),
    top_tracks: Type.Array(Type.Object({ rank: Type.Integer(), track_id: Type.String(), title: Type.String(), ...counts })),
    revenue: Type.Array(Revenue, { description: 'the artist’s sales in the period, per currency' }),
  },
  { title: 'ArtistAnalytics' },
);

export const PlatformKpis = Type.Object(
  {
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time' }),
    ...activity,
    streams: StreamCounts,
    orders: Type.Integer(),
    revenue: Type.Array(Revenue),
    new_signups: Type.Integer({ description: 'accounts created in the period' }),
    new_signups_by_role: Type.Record(Type.String(), Type.Integer()),
  },
  { title: 'PlatformKpis' },
);
