/**
 * Listener reports and the safety review (module G, fed by module H's feedback): one listener cannot take
 * an AI track off air; report_threshold distinct listeners can; an admin's flag withholds at once and an
 * admin's approval puts the track back. "Withheld" is what the scheduler asks (RegistryService.isWithheld).
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  generations,
  listenerFeedback,
  radioSlots,
  registryTracks,
  safetyFlags,
  safetyReports,
  safetyReviews,
  type StoredGenerationRequest,
} from '../../src/infra/db/schema/index.js';
import type { MusicContext } from '../../src/engine/types.js';
import { MIGRATIONS_FOLDER } from '../../src/infra/db/client.js';
import { STATION_EVENTS_CHANNEL } from '../../src/station/events/station-events.js';
import { newStationTrackId, type RegisterInput } from '../../src/station/registry/registry.service.js';
import { SlotsRepository } from '../../src/station/scheduler/slots.repository.js';
import { authHeaders, stationForSuite, signupListener, staffLogin, verifiedListener, verifyAddress } from '../helpers/station.js';
import { clientAddress } from '../auth/support.js';

let counter = 0;
function recordInput(): RegisterInput {
  counter += 1;
  return {
    stationTrackId: newStationTrackId(),
    generationId: randomUUID(),
    sessionId: 'session-review',
    radioOnly: true,
    modelVersion: 'audio-v20260101.1-test',
    lyricsModelVersion: null,
    trainingDatasetHash: `sha256:${'a1'.repeat(32)}`,
    contextSnapshot: { genre: 'synthwave', mood: ['dreamy'] },
    title: `Reported ${counter}`,
    genre: 'synthwave',
    mood: ['dreamy'],
    bpm: 110,
    durationSec: 150,
    audioBlobKey: `ai/review-${counter}.mp3`,
    audioSha256: createHash('sha256').update(`review ${counter}`).digest('hex'),
    waveformBlobKey: null,
    coverBlobKey: null,
    lyricId: null,
    influencedBy: [],
    safetyScore: 0.91,
    generatedAt: new Date(),
  };
}

type Headers = Record<string, string>;

describe('safety review: listener reports, threshold, admin flag and approval', () => {
  let admin: Headers;
  const listeners: Headers[] = [];
  let markerListener: Headers;
  const events: { event: string; data: Record<string, unknown> }[] = [];

  /** Each listener reports from an address of its own (one counted report per address). */
  const addresses = new Map<Headers, string>();
  /** A listener of the radio: signed up and verified, from an address of its own, holding a stream ticket from now on. */
  const newListener = async (address = clientAddress()) => {
    const who = authHeaders(await verifiedListener(station));
    addresses.set(who, address);
    expect((await station.http.inject({ url: '/station/v1/radio/stream-info', headers: who })).statusCode).toBe(200);
    return who;
  };

  const station = stationForSuite();
  beforeAll(async () => {
    admin = authHeaders(await staffLogin(station));
    for (let i = 0; i < 6; i++) listeners.push(await newListener());
    markerListener = await newListener();
    await station.bus.subscribe(STATION_EVENTS_CHANNEL, (m) => events.push(m as (typeof events)[number]));
  }, 300_000);

  const db = () => station.database.db;
  /** A registered AI track that is on air now (listeners' tickets cover it). */
  const newTrack = async (startedAt = new Date()) => {
    const id = (await station.station.registry.register(recordInput())).stationTrackId;
    await station.station.registryModule.plays.recordPlay({
      origin: 'ai_generated',
      stationTrackId: id,
      sessionId: null,
      startedAt,
      durationSec: 150,
      listenerCount: 1,
    });
    return id;
  };
  const report = (id: string, who: Headers, flag = true) =>
    station.http.inject({
      method: 'POST',
      url: '/station/v1/radio/feedback',
      headers: who,
      remoteAddress: addresses.get(who) ?? clientAddress(),
      payload: { station_track_id: id, rating: 'thumbs_down', flag_inappropriate: flag },
    });
  const record = async (id: string) => (await station.http.inject({ url: `/station/v1/registry/tracks/${id}`, headers: admin })).json();
  const patch = (id: string, payload: object) => station.http.inject({ method: 'PATCH', url: `/station/v1/registry/tracks/${id}`, headers: admin, payload });
  const setThreshold = async (value: number) => {
    const response = await station.http.inject({ method: 'PATCH', url: '/station/v1/admin/config', headers: admin, payload: { report_threshold: value } });
    expect(response.statusCode, response.body).toBe(200);
  };
  const raised = (id: string) => events.filter((e) => e.event === 'station.safety.flag_raised' && e.data.station_track_id === id);
  const flagsOf = async (id: string, flagType: string) =>
    db()
      .select()
      .from(safetyFlags)
      .where(and(eq(safetyFlags.stationTrackId, id), eq(safetyFlags.flagType, flagType)));
  const reviewQueue = async () =>
    (await station.http.inject({ url: '/station/v1/registry/tracks?flag_for_review=true&limit=100', headers: admin }))
      .json()
      .data.map((r: { station_track_id: string }) => r.station_track_id);
  /**
   * Events travel on the bus in order: once a later marker event has arrived, any event emitted before it
   * has too. So "still only one" is checked after the marker, not after a sleep.
   */
  const settleEvents = async () => {
    const marker = await newTrack();
    await report(marker, markerListener);
    await expect.poll(() => raised(marker)).toHaveLength(1);
  };

  it('one report puts the track in the review queue; it still airs; flag_raised fires once', async () => {
    const id = await newTrack();
    expect((await report(id, listeners[0])).statusCode).toBe(201);

    expect(await reviewQueue()).toContain(id);
    const detail = await record(id);
    expect(detail).toMatchObject({ flag_for_review: true, withheld: false, withheld_reason: null, listener_reports: 1 });
    expect(detail.review).toMatchObject({ in_review: true, withheld: false, listener_reports: 1, report_threshold: 3, round: 1 });
    expect(detail.review.reports).toHaveLength(1);
    expect(await station.station.registry.isWithheld(id)).toBe(false);
    const transparency = await station.http.inject({ url: `/station/v1/transparency/${id}`, headers: listeners[0] });
    expect(transparency.json().withheld).toBe(false);

    await expect.poll(() => raised(id)).toHaveLength(1);
    expect(raised(id)[0].data).toMatchObject({ flag_type: 'listener_report', safety_score: expect.closeTo(0.91, 5), withheld: false });
    expect(await flagsOf(id, 'listener_report')).toHaveLength(1);
  });

  it('report_threshold distinct listeners withhold it, with one record of that; the event still fires only once', async () => {
    const id = await newTrack();
    await report(id, listeners[0]);
    await report(id, listeners[1]);
    expect(await station.station.registry.isWithheld(id)).toBe(false);
    await report(id, listeners[2]);

    expect(await station.station.registry.isWithheld(id)).toBe(true);
    expect(await station.station.registry.withheldReason(id)).toBe('listener_reports');
    expect(await record(id)).toMatchObject({
      withheld: true,
      withheld_reason: 'listener_reports',
      listener_reports: 3,
      review: { withheld_at: expect.any(String) },
    });
    const withheldRecord = await flagsOf(id, 'listener_reports_threshold');
    expect(withheldRecord).toHaveLength(1);
    expect(withheldRecord[0].detail).toMatchObject({ reporters: 3, report_threshold: 3, review_round: 1 });
    expect((await station.http.inject({ url: `/station/v1/transparency/${id}`, headers: listeners[0] })).json().withheld).toBe(true);

    await report(id, listeners[3]);
    expect(await flagsOf(id, 'listener_reports_threshold')).toHaveLength(1);
    await expect.poll(() => raised(id)).toHaveLength(1);
    await settleEvents();
    expect(raised(id)).toHaveLength(1);
    expect(await flagsOf(id, 'listener_report')).toHaveLength(1);
  });

  it('reports from fresh accounts that never held a ticket or a stream while the track aired count nothing', async () => {
    const id = await newTrack();
    const throwaways: Headers[] = [];
    const emails: string[] = [];
    for (let i = 0; i < 3; i++) {
      const email = `throwaway-${i}-${randomUUID()}@example.com`;
      const who = authHeaders(await signupListener(station, email));
      addresses.set(who, clientAddress());
      throwaways.push(who);
      emails.push(email);
    }
    for (const who of throwaways) expect((await report(id, who)).statusCode).toBe(201);
    expect(await station.station.registry.isWithheld(id)).toBe(false);
    expect(await record(id)).toMatchObject({ flag_for_review: false, withheld: false, listener_reports: 0 });
    expect(await db().select().from(listenerFeedback).where(eq(listenerFeedback.stationTrackId, id))).toHaveLength(3); // kept as feedback

    // A ticket taken after the airing ended does not make a report of that airing count.
    const aired = await newTrack(new Date(Date.now() - 3600_000));
    for (const who of throwaways) await station.http.inject({ url: '/station/v1/radio/stream-info', headers: who });
    for (const who of throwaways) await report(aired, who);
    expect(await record(aired)).toMatchObject({ flag_for_review: false, listener_reports: 0 });
    // Tickets covering the track on air now are not enough while the addresses are unverified...
    for (const who of throwaways) await report(id, who);
    expect(await record(id)).toMatchObject({ withheld: false, listener_reports: 0 });
    // ... once their owners verified them, the same listeners' reports count.
    for (const email of emails) await verifyAddress(station, email);
    for (const who of throwaways) await report(id, who);
    expect(await record(id)).toMatchObject({ withheld: true, listener_reports: 3 });
  });

  it('counts one report per client address, whoever reports from it', async () => {
    const id = await newTrack();
    const address = clientAddress();
    const household = [await newListener(address), await newListener(address), await newListener(address)];
    for (const who of household) expect((await report(id, who)).statusCode).toBe(201);
    expect(await station.station.registry.isWithheld(id)).toBe(false);
    expect(await record(id)).toMatchObject({ flag_for_review: true, withheld: false, listener_reports: 1 });
    expect(await db().select().from(safetyReports).where(eq(safetyReports.stationTrackId, id))).toHaveLength(1);
  });

  it('the same listener reporting three times counts once and does not withhold', async () => {
    const id = await newTrack();
    for (let i = 0; i < 3; i++) expect((await report(id, listeners[4])).statusCode).toBe(201);
    expect(await station.station.registry.isWithheld(id)).toBe(false);
    expect(await record(id)).toMatchObject({ flag_for_review: true, withheld: false, listener_reports: 1 });
    // every report is kept as feedback; the review counts reporters
    expect(await db().select().from(listenerFeedback).where(eq(listenerFeedback.stationTrackId, id))).toHaveLength(3);
    expect(await db().select().from(safetyReports).where(eq(safetyReports.stationTrackId, id))).toHaveLength(1);
    await expect.poll(() => raised(id)).toHaveLength(1);
  });

  it('concurrent reports of distinct listeners: exactly one enters the queue and exactly one withholds', async () => {
    const id = await newTrack();
    const answers = await Promise.all(listeners.map((who) => report(id, who)));
    expect(answers.map((a) => a.statusCode)).toEqual(listeners.map(() => 201));
    expect(await record(id)).toMatchObject({ withheld: true, withheld_reason: 'listener_reports', listener_reports: listeners.length });
    expect(await flagsOf(id, 'listener_report')).toHaveLength(1);
    expect(await flagsOf(id, 'listener_reports_threshold')).toHaveLength(1);
    await expect.poll(() => raised(id)).toHaveLength(1);
    await settleEvents();
    expect(raised(id)).toHaveLength(1);
  });

  it('applies a changed report_threshold: to the next report, and at once to tracks already in the queue', async () => {
    const next = await newTrack();
    const waiting = await newTrack();
    await report(waiting, listeners[0]);
    await report(waiting, listeners[1]);
    expect(await station.station.registry.isWithheld(waiting)).toBe(false);

    await setThreshold(2);
    // lowering it withholds the track that already has two reporters
    expect(await station.station.registry.withheldReason(waiting)).toBe('listener_reports');
    expect((await flagsOf(waiting, 'listener_reports_threshold'))[0].detail).toMatchObject({ reporters: 2, report_threshold: 2 });
    await report(next, listeners[0]);
    expect(await station.station.registry.isWithheld(next)).toBe(false);
    await report(next, listeners[1]);
    expect(await station.station.registry.isWithheld(next)).toBe(true);

    // raising it releases nothing: an admin approves
    await setThreshold(5);
    expect(await station.station.registry.isWithheld(next)).toBe(true);
    const single = await newTrack();
    for (const who of listeners.slice(0, 4)) await report(single, who);
    expect(await station.station.registry.isWithheld(single)).toBe(false);
    await report(single, listeners[4]);
    expect(await station.station.registry.isWithheld(single)).toBe(true);
    await setThreshold(3);
  });

  it('an admin flag withholds at once; clearing it approves: back on air, and reports count afresh', async () => {
    const id = await newTrack();
    await report(id, listeners[5]);
    await expect.poll(() => raised(id)).toHaveLength(1);
    // already in the queue through a listener: the admin's flag withholds it, without a second flag_raised
    const flagged = await patch(id, { flag_for_review: true });
    expect(flagged.json()).toMatchObject({ flag_for_review: true, withheld: true, withheld_reason: 'admin_flag' });
    expect(await station.station.registry.isWithheld(id)).toBe(true);
    expect(await flagsOf(id, 'manual_review')).toHaveLength(1);
    await settleEvents();
    expect(raised(id)).toHaveLength(1);

    // the queue shows who reported it
    const queued = await record(id);
    expect(queued.review.reports).toEqual([expect.objectContaining({ reporter: expect.stringMatching(/^user:/), reported_at: expect.any(String) })]);
    expect(queued.safety_flags.map((f: { flag_type: string }) => f.flag_type)).toEqual(['listener_report', 'manual_review']);

    const approved = await patch(id, { flag_for_review: false });
    expect(approved.json()).toMatchObject({ flag_for_review: false, withheld: false, withheld_reason: null, listener_reports: 0 });
    expect(await station.station.registry.isWithheld(id)).toBe(false);
    expect(await reviewQueue()).not.toContain(id);
    expect((await record(id)).review).toMatchObject({ round: 2, listener_reports: 0, last_approved_at: expect.any(String), reports: [] });

    // the listener who reported before may report again in the new round: the track re-enters the queue
    await report(id, listeners[5]);
    expect(await record(id)).toMatchObject({ flag_for_review: true, withheld: false, listener_reports: 1 });
    await expect.poll(() => raised(id)).toHaveLength(2);
  });

  it('an admin flag on a track nobody reported withholds it and raises flag_raised once', async () => {
    const id = await newTrack();
    expect((await patch(id, { flag_for_review: true })).json()).toMatchObject({ withheld: true, withheld_reason: 'admin_flag', listener_reports: 0 });
    expect((await patch(id, { flag_for_review: true })).statusCode).toBe(200);
    await expect.poll(() => raised(id)).toHaveLength(1);
    expect(raised(id)[0].data).toMatchObject({ flag_type: 'manual_review', withheld: true });
    expect(await flagsOf(id, 'manual_review')).toHaveLength(1);
  });

  it('a safety filter verdict withholds for good: an approval does not release it', async () => {
    const id = await newTrack();
    const [row] = await db().select().from(registryTracks).where(eq(registryTracks.stationTrackId, id));
    await db().insert(safetyFlags).values({ stationTrackId: id, generationId: row.generationId, flagType: 'audio_duplicate', safetyScore: 0.4, detail: {} });
    expect(await record(id)).toMatchObject({ withheld: true, withheld_reason: 'safety_filter', flag_for_review: false });
    await patch(id, { flag_for_review: true });
    await patch(id, { flag_for_review: false });
    expect(await station.station.registry.withheldReason(id)).toBe('safety_filter');
  });

  it('a withheld track is never reused as a fallback stand-in, even when marked reuse_eligible', async () => {
    const registry = station.station.registry;
    const filtered = await newTrack();
    const [row] = await db().select().from(registryTracks).where(eq(registryTracks.stationTrackId, filtered));
    await db()
      .insert(safetyFlags)
      .values({ stationTrackId: filtered, generationId: row.generationId, flagType: 'audio_duplicate', safetyScore: 0.4, detail: {} });
    expect((await patch(filtered, { reuse_eligible: true })).statusCode).toBe(200);
    const clean = await newTrack();
    expect((await patch(clean, { reuse_eligible: true })).statusCode).toBe(200);
    // Every other reuse-eligible track is avoided, so the only candidates are these two.
    const others = (await db().select({ id: registryTracks.stationTrackId }).from(registryTracks).where(eq(registryTracks.reuseEligible, true)))
      .map((r) => r.id)
      .filter((id) => id !== filtered && id !== clean);
    expect((await registry.reusableAiTrack(others))?.stationTrackId).toBe(clean);
    expect(await registry.reusableAiTrack([...others, clean])).toBeNull();
  });

  it('an AI slot whose finished track is withheld falls back with that reason, not as a failed generation', async () => {
    const input = recordInput();
    const id = (await station.station.registry.register(input)).stationTrackId;
    await db()
      .insert(generations)
      .values({
        id: input.generationId,
        status: 'complete',
        // A partial row: the slot reads only its status and track.
        request: {} as StoredGenerationRequest,
        context: {} as MusicContext,
        seed: 1,
        quality: '128kbps',
        maxDurationSec: 150,
        modelVersion: input.modelVersion,
        stationTrackId: id,
        audioBlobKey: input.audioBlobKey,
        completedAt: new Date(),
      });
    expect((await patch(id, { flag_for_review: true })).statusCode).toBe(200);
    expect((await station.http.inject({ method: 'POST', url: '/station/v1/admin/radio/enable', headers: admin })).statusCode).toBe(200);
    const slots = new SlotsRepository(db());
    await db().update(radioSlots).set({ status: 'played' }).where(eq(radioSlots.status, 'planned'));
    const slot = await slots.insert({ origin: 'ai_generated', sessionId: 'session-review', durationSec: 150, generationId: input.generationId });
    await station.station.radio.scheduler.source.next();
    const [after] = await db().select().from(radioSlots).where(eq(radioSlots.id, slot.id));
    expect(after.replacedReason).toBe('the generated track is withheld (admin_flag)');
    await settleEvents();
    expect(events.filter((e) => e.event === 'station.track.generation_failed' && e.data.generation_id === input.generationId)).toEqual([]);
    await station.http.inject({ method: 'POST', url: '/station/v1/admin/radio/disable', headers: admin, payload: { reason: 'test over' } });
  });

  it('a flag on a catalog track is stored as feedback and reviews nothing', async () => {
    const response = await report('stn_not_registered', listeners[3]);
    expect(response.statusCode).toBe(404);
    expect(await db().select().from(safetyReviews).where(eq(safetyReviews.stationTrackId, 'stn_not_registered'))).toHaveLength(0);
  });
});

describe('safety review backfill (drizzle/0010): tracks already in the queue when reports began to count', () => {
  const station = stationForSuite();

  it('keeps admin-flagged tracks withheld, withholds tracks with enough reporters, lets a single report air', async () => {
    const db = station.database.db;
    const users: string[] = [];
    for (let i = 0; i < 3; i++) users.push((await signupListener(station)).userId);
    const adminFlagged = await station.station.registry.register(recordInput());
    const manyReports = await station.station.registry.register(recordInput());
    const oneReport = await station.station.registry.register(recordInput());
    // the state the previous version left: flag_for_review true, listener_report rows per report, no reviews
    for (const track of [adminFlagged, manyReports, oneReport]) {
      await db.update(registryTracks).set({ flagForReview: true }).where(eq(registryTracks.stationTrackId, track.stationTrackId));
    }
    await db.insert(safetyFlags).values({ stationTrackId: adminFlagged.stationTrackId, flagType: 'manual_review', safetyScore: 0.9, detail: {} });
    const feedback = (track: string, userId: string) => ({ userId, stationTrackId: track, rating: 'thumbs_down' as const, flagInappropriate: true });
    await db
      .insert(listenerFeedback)
      .values([
        ...users.map((u) => feedback(manyReports.stationTrackId, u)),
        feedback(manyReports.stationTrackId, users[0]),
        feedback(oneReport.stationTrackId, users[0]),
        feedback(oneReport.stationTrackId, users[0]),
      ]);

    const statements = readFileSync(join(MIGRATIONS_FOLDER, '0010_safety_reviews_backfill.sql'), 'utf8').split('--> statement-breakpoint');
    for (const statement of statements) await db.execute(sql.raw(statement));

    const registry = station.station.registry;
    expect(await registry.withheldReason(adminFlagged.stationTrackId)).toBe('admin_flag');
    expect(await registry.withheldReason(manyReports.stationTrackId)).toBe('listener_reports');
    expect(await registry.withheldReason(oneReport.stationTrackId)).toBeNull();
    const count = async (id: string) => (await db.select().from(safetyReports).where(eq(safetyReports.stationTrackId, id))).length;
    expect([await count(manyReports.stationTrackId), await count(oneReport.stationTrackId)]).toEqual([3, 1]);
  });
});
