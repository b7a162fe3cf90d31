/**
 * Who may hear each event: one policy, applied when a webhook is registered (service.ts: asking for an
 * event the owner may not hear is a 400 naming it) and again when the dispatcher picks the webhooks of an
 * event (dispatcher.ts: a webhook hears it only if its owner may, as the owner is at that moment).
 *
 *   public          anyone's webhook: track.published, track.removed, artist.verified (public catalog facts)
 *   admins          admin-owned webhooks only: user.signup (a new user's e-mail), user.subscribed
 *   resource_owner  admins, and the owner of what the event is about: payment.success (the selling artist's
 *                   owner), capsule.unlocked (the capsule's artist's owner). The publisher names that owner
 *                   in the bus message's `audience` (never in `data`, so never in the delivered body); a
 *                   message without one reaches admins only.
 *   station         the radio's events (station.*): registered from a live credential holding the event's
 *                   station scope (STATION_EVENT_SCOPE: what reads the same facts through the API or the
 *                   WebSocket channels), and sent while the owner's role still holds it
 */
import type { WebhookEventName } from './event-names.js';
import type { Environment } from '../../kernel/environment.js';
import { scopesOfRole, type Role, type STATION_SCOPES } from '../../auth/scopes.js';

type StationScope = (typeof STATION_SCOPES)[number];

export type AudienceKind = 'public' | 'admins' | 'resource_owner' | 'station';

export const EVENT_AUDIENCE: { readonly [E in WebhookEventName]: AudienceKind } = {
  'station.radio.enabled': 'station',
  'station.radio.disabled': 'station',
  'station.track.now_playing': 'station',
  'station.track.generation_complete': 'station',
  'station.track.generation_failed': 'station',
  'station.training.job_completed': 'station',
  'station.training.job_failed': 'station',
  'station.safety.flag_raised': 'station',
  'track.published': 'public',
  'track.removed': 'public',
  'artist.verified': 'public',
  'user.signup': 'admins',
  'user.subscribed': 'admins',
  'payment.success': 'resource_owner',
  'capsule.unlocked': 'resource_owner',
};

/**
 * The scope each station event needs: the radio's public facts station:read (as /now-playing); generations
 * station:generate (as GET /station/v1/generate/track/{id}); training station:train (as /training-progress);
 * safety flags station:admin (the review of withheld tracks is the admins').
 */
export const STATION_EVENT_SCOPE: { readonly [E in Extract<WebhookEventName, `station.${string}`>]: StationScope } = {
  'station.radio.enabled': 'station:read',
  'station.radio.disabled': 'station:read',
  'station.track.now_playing': 'station:read',
  'station.track.generation_complete': 'station:generate',
  'station.track.generation_failed': 'station:generate',
  'station.training.job_completed': 'station:train',
  'station.training.job_failed': 'station:train',
  'station.safety.flag_raised': 'station:admin',
};

function stationScopeOf(event: WebhookEventName): StationScope {
  return STATION_EVENT_SCOPE[event as keyof typeof STATION_EVENT_SCOPE];
}

/**
 * What a publisher sends beside a resource_owner event: the user owning the resource it is about (the
 * selling artist's owner, the capsule's artist's owner); null when the resource has no owner (admins only).
 */
export interface EventAudience {
  ownerUserId: string | null;
}

/** The credential registering a webhook, as the policy sees it. */
export interface Registrant {
  /** Holds platform:admin. */
  isAdmin: boolean;
  /** The station scopes the registering credential holds. */
  stationScopes: readonly string[];
  environment: Environment;
}

/** Why a registrant may not subscribe to `event`; null when it may. */
export function registrationRefusal(event: WebhookEventName, registrant: Registrant): string | null {
  switch (EVENT_AUDIENCE[event]) {
    case 'public':
      return null;
    case 'admins':
      return registrant.isAdmin ? null : 'only admin-owned webhooks hear it';
    case 'resource_owner':
      // Anyone may ask: each one is delivered to the resource's owner and admins only (recipientMayHear).
      return null;
    case 'station':
      if (registrant.environment === 'test') return "it comes from the live radio, and a test key's webhook hears the sandbox's events only";
      return registrant.stationScopes.includes(stationScopeOf(event)) ? null : `it needs a credential holding ${stationScopeOf(event)}`;
  }
}

/** A subscribed webhook's owner at dispatch time. */
export interface Recipient {
  ownerUserId: string;
  /** The owner's account is an active admin or super_admin now. */
  ownerIsAdmin: boolean;
  /** The owner's role now (null when unknown: no station event is sent then). */
  ownerRole: Role | null;
}

/** Whether this webhook's owner may hear this occurrence of `event` (the registration check, made again now). */
export function recipientMayHear(event: WebhookEventName, recipient: Recipient, audience: EventAudience | undefined): boolean {
  switch (EVENT_AUDIENCE[event]) {
    case 'public':
      return true;
    case 'station':
      // Only live webhooks are asked. The role's scopes, not a login's: the registration needed the scope itself.
      return recipient.ownerRole !== null && scopesOfRole(recipient.ownerRole).includes(stationScopeOf(event));
    case 'admins':
      return recipient.ownerIsAdmin;
    case 'resource_owner':
      return recipient.ownerIsAdmin || (audience?.ownerUserId != null && audience.ownerUserId === recipient.ownerUserId);
  }
}
