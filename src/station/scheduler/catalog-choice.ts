/** Picks catalog tracks for the live context, avoiding what was just played or is already planned. */
import type { CatalogRepository } from '../../platform/catalog/catalog.repository.js';
import type { StationConfigRow } from '../admin/config.repository.js';
import { musicContextOf, toView, type ContextService } from '../context/context.service.js';
import { pickCatalogTrack } from './catalog-picker.js';
import type { SlotsRepository } from './slots.repository.js';

export class CatalogChoice {
  constructor(
    private readonly slots: SlotsRepository,
    private readonly contexts: ContextService,
    private readonly catalog: CatalogRepository,
  ) {}

  async pick(config: StationConfigRow, alsoAvoid: string[] = []) {
    const [candidates, recent, context] = await Promise.all([
      this.slots.catalogCandidates(config.explicitAllowed),
      this.slots.recentPlays(),
      this.contexts.current(),
    ]);
    return pickCatalogTrack(candidates, musicContextOf(toView(context)), { ...recent, trackIds: [...[...alsoAvoid].reverse(), ...recent.trackIds] });
  }

  /** The track the picker would choose now, with its catalog row (GET /scheduler/next-track). */
  async suggest(config: StationConfigRow) {
    const picked = await this.pick(config);
    return picked ? this.catalog.findTrack(picked.id) : null;
  }
}
