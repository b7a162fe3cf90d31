/**
 * HLS listeners are not connections: a player fetches the playlist every few seconds. Each listener whose
 * ticket fetched the playlist within the last `windowMs` is present (entered once in the station's listener
 * presence, as a stream or a WebSocket is), and leaves when its requests stop for that long.
 */
import type { ListenerPresence } from '../realtime/listener-presence.js';

/** Three playlist reloads (a player reloads every target duration, ~4 s) may be missed before a listener leaves. */
export const HLS_LISTENER_WINDOW_MS = 15_000;

export class HlsListeners {
  private readonly present = new Map<string, { leave: () => void; timer: NodeJS.Timeout }>();

  constructor(
    private readonly presence: Pick<ListenerPresence, 'enter'>,
    private readonly windowMs = HLS_LISTENER_WINDOW_MS,
  ) {}

  /** The listener fetched the playlist now. */
  seen(listener: string): void {
    const entry = this.present.get(listener);
    if (entry) {
      entry.timer.refresh();
      return;
    }
    const leave = this.presence.enter(listener);
    const timer = setTimeout(() => {
      this.present.delete(listener);
      leave();
    }, this.windowMs);
    timer.unref();
    this.present.set(listener, { leave, timer });
  }

  get count(): number {
    return this.present.size;
  }

  /** Every listener leaves (the instance stops). */
  stop(): void {
    for (const { leave, timer } of this.present.values()) {
      clearTimeout(timer);
      leave();
    }
    this.present.clear();
  }
}
