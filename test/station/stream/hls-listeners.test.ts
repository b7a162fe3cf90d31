/** HLS listeners: present while their player fetches the playlist, once each, gone a window after the last fetch. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HlsListeners } from '../../../src/station/stream/hls-listeners.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('HlsListeners', () => {
  it('enters a listener once, keeps it while it reloads, and lets it leave a window after its last fetch', () => {
    vi.useFakeTimers();
    const present = new Map<string, number>();
    const presence = {
      enter(listener: string) {
        present.set(listener, (present.get(listener) ?? 0) + 1);
        return () => present.set(listener, present.get(listener)! - 1);
      },
    };
    const listeners = new HlsListeners(presence, 15_000);
    listeners.seen('user:a');
    listeners.seen('user:b');
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(4_000);
      listeners.seen('user:a'); // a's player reloads every 4 s; b's stopped
    }
    expect(present.get('user:a')).toBe(1);
    expect(present.get('user:b')).toBe(0);
    expect(listeners.count).toBe(1);
    vi.advanceTimersByTime(15_000);
    expect(present.get('user:a')).toBe(0);
    expect(listeners.count).toBe(0);
    listeners.seen('user:c');
    listeners.stop();
    expect(present.get('user:c')).toBe(0);
  });
});
