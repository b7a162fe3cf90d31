/**
 * Sonic Capsules with Tap-to-Reveal. An artist (the `artist` scope, on an artist they own; admins on any)
 * creates and updates a capsule: title and teaser (public), hidden content (text, a catalog track and/or a media
 * URL) and an unlock rule: `none` (any signed-in listener may unlock), `follow` (the listener must follow the
 * artist) or `own` (the listener must have bought, in the store, the product named by `unlock_product_id`, or when
 * none is named any product holding one of the artist's tracks; sandbox purchases count in the sandbox only). A listener unlocks it once (idempotent; the first unlock emits `capsule.unlocked`) and from then on
 * sees the content; the artist's owner and admins always do. Everyone else sees the teaser with `content: null`.
 */
import type { Principal } from '../../auth/principal.js';
import { Errors } from '../../errors.js';
import type { Clock } from '../../infra/clock/clock.js';
import type { TransactionalPlatformEvents } from '../webhooks/platform-events.js';
import type { FollowsRepository } from '../artists/follows.repository.js';

/** The artists group's follows (its module's `follows`): a capsule's artist by slug or id, and who follows it. */
export type CapsuleFollows = Pick<FollowsRepository, 'findArtist' | 'isFollowing'>;
import { callerUserId, isAdmin, sessionUserId } from '../../auth/principal.js';
import { trackRef } from '../shared/track-ref.js';
import type { Environment } from '../../kernel/environment.js';
import type { CapsuleChange, CapsuleRow, CapsulesRepository, UnlockRule } from './capsules.repository.js';

/** The store's read port: what a purchase-unlocked capsule checks (src/platform/store/module.ts publishes it). */
export interface CapsulePurchases {
  /** A product's artist, or null when there is no such product. */
  productArtist(productId: string): Promise<string | null>;
  /** Whether the user bought the product named, or when none is named any product holding one of the artist's tracks. */
  hasBought(userId: string, environment: Environment, artistId: string, productId: string | null): Promise<boolean>;
}

export interface CapsuleInput {
  artist_id?: string;
  title?: string;
  teaser?: string;
  content_text?: string | null;
  content_track_id?: string | null;
  content_media_url?: string | null;
  unlock_rule?: UnlockRule;
  unlock_product_id?: string | null;
}

export class CapsulesService {
  constructor(
    private readonly repo: CapsulesRepository,
    private readonly follows: CapsuleFollows,
    private readonly events: TransactionalPlatformEvents,
    private readonly clock: Clock,
    private readonly purchases: CapsulePurchases,
  ) {}

  private teaser(row: CapsuleRow, unlocked: boolean) {
    return {
      id: row.id,
      artist_id: row.artistId,
      artist_slug: row.artistSlug,
      artist_name: row.artistName,
      title: row.title,
      teaser: row.teaser,
      unlock_rule: row.unlockRule,
      unlock_product_id: row.unlockProductId,
      unlocked,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  private canManage(caller: Principal, artistOwnerUserId: string | null): boolean {
    return isAdmin(caller) || (caller.userId !== null && caller.userId === artistOwnerUserId);
  }

  private async page(caller: Principal, artistId: string | null, limit: number, offset: number) {
    const { rows, total } = await this.repo.list(caller.environment, artistId, limit, offset);
    const unlocked = caller.userId
      ? await this.repo.unlockedAmong(
          caller.userId,
          rows.map((row) => row.id),
        )
      : new Set<string>();
    return { data: rows.map((row) => this.teaser(row, unlocked.has(row.id))), total };
  }

  list(caller: Principal, limit: number, offset: number) {
    return this.page(caller, null, limit, offset);
  }

  async listByArtist(caller: Principal, artistSlugOrId: string, limit: number, offset: number) {
    const artist = await this.follows.findArtist(artistSlugOrId, caller.environment);
    if (!artist) throw Errors.notFound('Artist', artistSlugOrId);
    return this.page(caller, artist.id, limit, offset);
  }

  async get(caller: Principal, id: string) {
    const row = await this.repo.find(id, caller.environment);
    if (!row) throw Errors.notFound('Capsule', id);
    const unlocked = caller.userId ? (await this.repo.unlockedAmong(caller.userId, [row.id])).has(row.id) : false;
    const visible = unlocked || this.canManage(caller, row.artistOwnerUserId);
    let content = null;
    if (visible) {
      const track = row.contentTrackId ? await this.repo.findTrack(row.contentTrackId, caller.environment, false) : null;
      content = { text: row.contentText, track: track ? trackRef(track) : null, media_url: row.contentMediaUrl };
    }
    return { ...this.teaser(row, unlocked), content };
  }

  async create(caller: Principal, input: CapsuleInput & { title: string; teaser: string }) {
    const userId = callerUserId(caller);
    const artistId = await this.artistForCreate(caller, userId, input.artist_id);
    const change = await this.change(input, artistId, 'none', caller.environment);
    if (!change.contentText && !change.contentTrackId && !change.contentMediaUrl) {
      throw Errors.validation('a capsule hides something: give content_text, content_track_id or content_media_url');
    }
    const id = await this.repo.create({
      ...change,
      title: change.title ?? input.title,
      teaser: change.teaser ?? input.teaser,
      artistId,
      environment: caller.environment,
      createdBy: userId,
    });
    return this.get(caller, id);
  }

  async update(caller: Principal, id: string, input: CapsuleInput) {
    const row = await this.repo.find(id, caller.environment);
    if (!row) throw Errors.notFound('Capsule', id);
    if (!this.canManage(caller, row.artistOwnerUserId)) throw Errors.forbidden("only the artist's owner or an admin changes a capsule");
    const change = await this.change(input, row.artistId, row.unlockRule, caller.environment);
    const after = {
      text: change.contentText !== undefined ? change.contentText : row.contentText,
      track: change.contentTrackId !== undefined ? change.contentTrackId : row.contentTrackId,
      media: change.contentMediaUrl !== undefined ? change.contentMediaUrl : row.contentMediaUrl,
    };
    if (!after.text && !after.track && !after.media) throw Errors.validation('a capsule keeps some hidden content');
    await this.repo.update(row.id, change, this.clock.date());
    return this.get(caller, row.id);
  }

  /** Unlocks for the caller if the rule allows (403 otherwise); idempotent, the event goes out on the first unlock only. */
  async unlock(caller: Principal, id: string) {
    const userId = sessionUserId(caller);
    const row = await this.repo.find(id, caller.environment);
    if (!row) throw Errors.notFound('Capsule', id);
    if (row.unlockRule === 'follow' && !(await this.follows.isFollowing(userId, row.artistId, caller.environment))) {
      throw Errors.forbidden(`follow the artist to unlock this capsule (POST /v1/artists/${row.artistSlug}/follow)`);
    }
    if (row.unlockRule === 'own' && !(await this.purchases.hasBought(userId, caller.environment, row.artistId, row.unlockProductId))) {
      throw Errors.forbidden(
        row.unlockProductId
          ? `buy store product ${row.unlockProductId} to unlock this capsule`
          : `buy a store product with one of ${row.artistName}'s tracks to unlock this capsule (GET /v1/store/products?artist=${row.artistSlug})`,
      );
    }
    // capsule.unlocked is recorded in the webhooks' outbox in the unlock's transaction.
    const raised = await this.repo.unlock(row.id, userId, this.clock.date(), (tx) =>
      this.events.recordIn(tx, {
        event: 'capsule.unlocked',
        data: { capsule_id: row.id, user_id: userId, artist_id: row.artistId },
        environment: caller.environment,
        // Heard by the capsule's artist's owner and admins only (src/platform/webhooks/event-audience.ts).
        audience: { ownerUserId: row.artistOwnerUserId },
      }),
    );
    await raised?.();
    return this.get(caller, row.id);
  }

  /** unlock_product_id goes with the rule `own` only, and names a product of the capsule's artist; another rule clears it. */
  private async checkUnlockProduct(input: CapsuleInput, artistId: string, currentRule: UnlockRule, change: CapsuleChange): Promise<void> {
    const rule = input.unlock_rule ?? currentRule;
    if (input.unlock_product_id === undefined || input.unlock_product_id === null) {
      if (input.unlock_product_id === null || rule !== 'own') change.unlockProductId = null;
      return;
    }
    if (rule !== 'own') throw Errors.validation('unlock_product_id goes with unlock_rule "own"');
    const productArtist = await this.purchases.productArtist(input.unlock_product_id);
    if (!productArtist) throw Errors.notFound('Product', input.unlock_product_id);
    if (productArtist !== artistId) throw Errors.validation("unlock_product_id must be a product of the capsule's artist");
    change.unlockProductId = input.unlock_product_id;
  }

  private async artistForCreate(caller: Principal, userId: string, artistRef: string | undefined): Promise<string> {
    // A test key's capsule belongs to the sandbox twin of its owner's artist.
    if (caller.environment === 'test') await this.repo.ensureSandboxTwins(userId);
    if (artistRef !== undefined) {
      // An artist of the caller's environment: a sandbox capsule belongs to a sandbox artist.
      const artist = await this.follows.findArtist(artistRef, caller.environment);
      if (!artist) throw Errors.notFound('Artist', artistRef);
      if (!this.canManage(caller, artist.ownerUserId)) throw Errors.forbidden('capsules are created for an artist you own');
      return artist.id;
    }
    const owned = await this.repo.artistsOwnedBy(userId, caller.environment);
    if (owned.length !== 1)
      throw Errors.validation(
        owned.length === 0 ? 'artist_id is required: the caller owns no artist' : 'artist_id is required: the caller owns several artists',
      );
    return owned[0];
  }

  /** The change an input asks for, checked; `artistId` and `currentRule`: the capsule's (a new one's: its artist, 'none'). */
  private async change(input: CapsuleInput, artistId: string, currentRule: UnlockRule, environment: Principal['environment']): Promise<CapsuleChange> {
    const change: CapsuleChange = {};
    await this.checkUnlockProduct(input, artistId, currentRule, change);
    if (input.title !== undefined) change.title = nonBlank(input.title, 'title');
    if (input.teaser !== undefined) change.teaser = nonBlank(input.teaser, 'teaser');
    if (input.content_text !== undefined) change.contentText = input.content_text;
    if (input.content_media_url !== undefined) change.contentMediaUrl = input.content_media_url;
    if (input.unlock_rule !== undefined) change.unlockRule = input.unlock_rule;
    if (input.content_track_id !== undefined) {
      if (input.content_track_id === null) change.contentTrackId = null;
      else {
        const track = await this.repo.findTrack(input.content_track_id, environment, true);
        if (!track) throw Errors.notFound('Track', input.content_track_id);
        change.contentTrackId = track.trackId;
      }
    }
    return change;
  }
}

function nonBlank(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw Errors.validation(`${field} must not be blank`);
  return trimmed;
}
