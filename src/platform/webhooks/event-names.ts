/**
 * The one registry of event names a webhook may subscribe to: the station's eight `station.*` events
 * (station-api.md, "Webhook events") and the platform's seven (platform-api.md, "Events").
 */
import type { StationEventName } from '../../station/events/station-events.js';

export const STATION_EVENT_NAMES = [
  'station.radio.enabled',
  'station.radio.disabled',
  'station.track.now_playing',
  'station.track.generation_complete',
  'station.track.generation_failed',
  'station.training.job_completed',
  'station.training.job_failed',
  'station.safety.flag_raised',
] as const satisfies readonly StationEventName[];

// Fails to compile when station-events.ts gains an event this list does not name.
type MissingStationEvent = Exclude<StationEventName, (typeof STATION_EVENT_NAMES)[number]>;
const stationListIsComplete: [MissingStationEvent] extends [never] ? true : never = true;
void stationListIsComplete;

export const PLATFORM_EVENT_NAMES = [
  'track.published',
  'track.removed',
  'user.signup',
  'user.subscribed',
  'payment.success',
  'artist.verified',
  'capsule.unlocked',
] as const;

export type PlatformEventName = (typeof PLATFORM_EVENT_NAMES)[number];
export type WebhookEventName = StationEventName | PlatformEventName;

export const WEBHOOK_EVENT_NAMES: readonly WebhookEventName[] = [...STATION_EVENT_NAMES, ...PLATFORM_EVENT_NAMES];

/** Station events are signed with X-Station-Signature and carry a signed envelope; platform events do not. */
export type EventFamily = 'station' | 'platform';

export function isWebhookEventName(value: unknown): value is WebhookEventName {
  return typeof value === 'string' && (WEBHOOK_EVENT_NAMES as readonly string[]).includes(value);
}

export function familyOf(event: WebhookEventName): EventFamily {
  return event.startsWith('station.') ? 'station' : 'platform';
}
