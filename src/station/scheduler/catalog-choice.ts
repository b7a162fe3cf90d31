/** Picks catalog tracks for the live context, avoiding what was just played or is already planned. */
import type { CatalogRepository } from '../../platform/catalog/catalog.repository.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import { musicContextOf, toView, type ContextService } from '../context/context.service.js';
import { pickCatalogTrack, type PickOptions, type RecentPlays } from './catalog-picker.js';
import type { CatalogRadioReads } from './catalog-reads.js';
import type { SlotsRepository } from './slots.repository.js';

export class CatalogChoice {
  constructor(
    private readonly slots: Pick<SlotsRepository, 'recentCatalogTrackIds' | 'lastHandedOut'>,
    private readonly contexts: ContextService,
    private readonly catalog: Pick<CatalogRepository, 'findTrack'>,
    /** The catalog's read port: the tracks the radio may play, and the artists of those it played. */
    private readonly catalogReads: Pick<CatalogRadioReads, 'radioCandidates' | 'artistIdsOf'>,
  ) {}

  /** The latest catalog tracks played and their artists, most recent first. */
  private async recentPlays(): Promise<RecentPlays> {
    const trackIds = await this.slots.recentCatalogTrackIds();
    const artistOf = await this.catalogReads.artistIdsOf(trackIds);
    return { trackIds, artistIds: trackIds.map((id) => artistOf.get(id)).filter((a): a is string => !!a) };
  }

  /** `alsoAvoid`: tracks that must not be chosen unless nothing else exists (strict: not even then). */
  async pick(config: StationConfigRow, alsoAvoid: string[] = [], options: Omit<PickOptions, 'exclude'> = {}) {
    const [candidates, recent, context] = await Promise.all([
      this.catalogReads.radioCandidates(config.explicitAllowed),
      this.recentPlays(),
      this.contexts.current(),
    ]);
    return pickCatalogTrack(
      candidates,
      musicContextOf(toView(context)),
      { ...recent, trackIds: [...[...alsoAvoid].reverse(), ...recent.trackIds] },
      Math.random,
      { ...options, exclude: alsoAvoid },
    );
  }

  /** The track the picker would choose now, with its catalog row (GET /scheduler/next-track). */
  async suggest(config: StationConfigRow) {
    const last = await this.slots.lastHandedOut();
    const picked = await this.pick(config, last?.trackId ? [last.trackId] : []);
    return picked ? this.catalog.findTrack(picked.id, 'live') : null;
  }
}
