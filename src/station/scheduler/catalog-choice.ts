/** Picks catalog tracks for the live context, avoiding what was just played or is already planned. */
import type { CatalogRepository } from '../../platform/catalog/catalog.repository.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import { musicContextOf, toView, type ContextService } from '../context/context.service.js';
import { pickCatalogTrack, type PickOptions } from './catalog-picker.js';
import type { SlotsRepository } from './slots.repository.js';

export class CatalogChoice {
  constructor(
    private readonly slots: SlotsRepository,
    private readonly contexts: ContextService,
    private readonly catalog: CatalogRepository,
  ) {}

  /** `alsoAvoid`: tracks that must not be chosen unless nothing else exists (strict: not even then). */
  async pick(config: StationConfigRow, alsoAvoid: string[] = [], options: Omit<PickOptions, 'exclude'> = {}) {
    const [candidates, recent, context] = await Promise.all([
      this.slots.catalogCandidates(config.explicitAllowed),
      this.slots.recentPlays(),
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
