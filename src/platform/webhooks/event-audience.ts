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
 *   station         the radio's events (station.*): registered from a live credential holding a station scope
 */
import type { WebhookEventName } from './event-names.js';
import type { Environment } from '../../kernel/environment.js';

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
  /** Holds any station scope (station:read or wider). */
  hasStationScope: boolean;
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
      return registrant.hasStationScope ? null : 'it needs a credential holding a station scope';
  }
}

/** A subscribed webhook's owner at dispatch time. */
export interface Recipient {
  ownerUserId: string;
  /** The owner's account is an active admin or super_admin now. */
  ownerIsAdmin: boolean;
}

/** Whether this webhook's owner may hear this occurrence of `event` (the registration check, made again now). */
export function recipientMayHear(event: WebhookEventName, recipient: Recipient, audience: EventAudience | undefined): boolean {
  switch (EVENT_AUDIENCE[event]) {
    case 'public':
    case 'station':
      // Station events are refused at registration to whoever may not hear them; only live webhooks are asked.
      return true;
    case 'admins':
      return recipient.ownerIsAdmin;
    case 'resource_owner':
      return recipient.ownerIsAdmin || (audience?.ownerUserId != null && audience.ownerUserId === recipient.ownerUserId);
  }
}
