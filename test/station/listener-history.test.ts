/**
 * The listener count over time (the admin panel's 24-hour chart): one shared row per minute holding the
 * highest count recorded in it, read back over the last hours, old samples dropped.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { ManualTimers } from '../../src/infra/clock/timers.js';
import { ListenerHistory } from '../../src/station/realtime/listener-history.js';
import { authHeaders, stationForSuite, signupListener } from '../helpers/station.js';

describe('listener history', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 24, 10, 0, 10));

  const station = stationForSuite({}, { clock, timers: new ManualTimers() });

  // A new listener each time: the clock moves by days here, past any token's life.
  const history = async (query = '') =>
    station.http.inject({ url: `/station/v1/radio/listeners/history${query}`, headers: authHeaders(await signupListener(station)) });

  it('keeps the highest count of each minute, shared by every instance, oldest first', async () => {
    let listeners = 3;
    // Two recorders on one database stand for two instances counting the same station.
    const first = new ListenerHistory(station.database.db, clock, new ManualTimers(), () => listeners);
    const second = new ListenerHistory(station.database.db, clock, new ManualTimers(), () => listeners);
    await first.record();
    clock.advance(30_000);
    listeners = 5;
    await second.record();
    listeners = 4;
    await first.record(); // same minute, fewer listeners now: the minute keeps its 5
    clock.advance(25_000); // 10:01:05
    listeners = 2;
    await second.record();

    const answer = await history('?hours=1');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toEqual([
      { at: '2026-11-24T10:00:00.000Z', listeners: 5 },
      { at: '2026-11-24T10:01:00.000Z', listeners: 2 },
    ]);
  });

  it('answers the last 24 hours by default and drops samples older than 30 days', async () => {
    let listeners = 7;
    const recorder = new ListenerHistory(station.database.db, clock, new ManualTimers(), () => listeners);
    clock.advance(25 * 3_600_000); // a day and an hour later: the first test's minutes fall out of the default window
    await recorder.record();
    expect((await history()).json().data).toEqual([{ at: new Date(clock.now() - (clock.now() % 60_000)).toISOString(), listeners: 7 }]);
    expect((await history('?hours=720')).json().data).toHaveLength(3);

    clock.advance(31 * 24 * 3_600_000);
    listeners = 1;
    await recorder.record();
    expect((await history('?hours=720')).json().data.map((s: { listeners: number }) => s.listeners)).toEqual([1]);
  });

  it('validates the window and needs a credential', async () => {
    expect((await history('?hours=0')).statusCode).toBe(400);
    expect((await history('?hours=721')).statusCode).toBe(400);
    expect((await station.http.inject({ url: '/station/v1/radio/listeners/history' })).statusCode).toBe(401);
  });
});
