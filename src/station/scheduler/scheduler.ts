/**
 * The radio scheduler, built from three parts by role, each given only the ports it uses:
 *
 *   planner (planning-cycle.ts)  leader only: tops the plan up, starts AI generations, notes fallback mode
 *   source  (track-source.ts)    the stream's TrackSource: next track, takeover, "listeners hear it now"
 *   status  (status-view.ts)     read model: the card on air, the queue, listeners, fallback
 *   on-air.ts                    what this instance put on air: the source writes it, the others read it
 *
 *   cycle (every STATION_SCHEDULER_CYCLE_SEC, and at once on radio control messages)
 *     -> top up the plan -> start due generations -> rotate the context
 *   stream asks for the next track -> resolve the head slot (AI ready? else catalog) -> cue it
 *   listeners hear it (the stream's audible change) -> mark on air, count the play, publish the card
 *
 * One leader per station (leader.ts): only it plans, cues and records starts; every instance serves the status.
 */
import { CatalogChoice } from './catalog-choice.js';
import { OnAirTrack } from './on-air.js';
import { RadioPlanner } from './planning-cycle.js';
import type { SchedulerDeps } from './scheduler-deps.js';
import { PlanReader } from './plan-reader.js';
import { SlotResolver } from './slot-resolver.js';
import { RadioStatusView } from './status-view.js';
import { RadioTrackSource } from './track-source.js';

export type { SchedulerDeps };
export { QUEUE_TARGET } from './slot-planner.js';

export type RadioScheduler = ReturnType<typeof buildRadioScheduler>;

export function buildRadioScheduler(deps: SchedulerDeps) {
  const { slots, config, catalog, clock, leader, log, bus } = deps;
  const catalogChoice = new CatalogChoice(slots, deps.contexts, catalog, deps.catalogReads);
  const media = { blobs: deps.blobs, analyses: deps.analyses, slots };
  const onAir = new OnAirTrack(clock);
  const planner = new RadioPlanner({
    slots,
    config,
    models: deps.models,
    generations: deps.generations,
    engine: deps.engine,
    catalogChoice,
    catalogReads: deps.catalogReads,
    onAir,
    warm: { ...media, catalog, generationRepo: deps.generationRepo },
    bus,
    clock,
    leader,
    log,
    cycleSec: deps.cycleSec,
    onLeaderCycle: deps.onLeaderCycle,
  });
  const status = new RadioStatusView({ config, slots, bus, clock, onAir, planner, listeners: deps.listeners });
  const resolver = new SlotResolver({
    ...media,
    catalogChoice,
    catalog,
    generationRepo: deps.generationRepo,
    generations: deps.generations,
    registry: deps.registry,
    reusable: deps.registry,
    events: deps.events,
    clock,
  });
  const source = new RadioTrackSource({
    slots,
    config,
    resolver,
    planner,
    onAir,
    registry: deps.registry,
    catalog,
    cards: deps.cards,
    events: deps.events,
    bus,
    clock,
    leader,
    listeners: deps.listeners,
    recordPlay: deps.recordPlay,
    log,
  });

  return {
    planner,
    source,
    status,
    /** The running order read only, for a follower playing on alone (a new reader each time it does). */
    alone: () =>
      new PlanReader({
        slots,
        config,
        sourceOf: (slot, row) => source.sourceOf(slot, row),
        stillRendering: (slot) => resolver.stillRendering(slot),
      }),
    /** Joins the leader election; a leader after a restart finds nothing on air; then status and planning start. */
    async start(): Promise<void> {
      await leader.start();
      if (leader.isLeader()) await slots.resetAfterRestart(clock.date());
      await status.start();
      await planner.start();
    },
    async stop(): Promise<void> {
      await planner.stop();
      await status.stop();
      await leader.stop();
    },
  };
}
