import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ChannelHub } from '../../src/station/realtime/hub.js';

/** The part of a ws socket the hub uses; without `_socket` the hub sends through `send`, recorded here. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  readonly received: string[] = [];
  send(data: Buffer): void {
    this.received.push(JSON.parse(data.toString()).n);
  }
}

function hubWith(count: number, batchSize: number) {
  const hub = new ChannelHub({ batchSize });
  const sockets = Array.from({ length: count }, () => new FakeSocket());
  // The fake carries only what the hub touches (readyState, bufferedAmount, send, events).
  for (const socket of sockets) hub.add('now-playing', socket as unknown as WebSocket);
  return { hub, sockets };
}

describe('ChannelHub batched broadcast', () => {
  it('writes the first batch at once and the rest on later turns of the event loop', async () => {
    const { hub, sockets } = hubWith(5, 2);
    expect(hub.broadcast('now-playing', { n: 'a' })).toBe(5);
    expect(sockets.map((s) => s.received.length)).toEqual([1, 1, 0, 0, 0]);
    await hub.idle();
    expect(sockets.every((s) => s.received.join() === 'a')).toBe(true);
  });

  it('keeps broadcasts in order on every socket', async () => {
    const { hub, sockets } = hubWith(7, 3);
    hub.broadcast('now-playing', { n: 'a' });
    hub.broadcast('now-playing', { n: 'b' });
    hub.broadcast('now-playing', { n: 'c' });
    await hub.idle();
    for (const socket of sockets) expect(socket.received).toEqual(['a', 'b', 'c']);
    expect(hub.stats.sent).toBe(21);
  });

  it('skips a socket removed before its batch and does not reach clients that joined after the broadcast', async () => {
    const { hub, sockets } = hubWith(4, 1);
    hub.broadcast('now-playing', { n: 'a' });
    hub.remove(sockets[3] as unknown as WebSocket);
    const late = new FakeSocket();
    hub.add('now-playing', late as unknown as WebSocket);
    await hub.idle();
    expect(sockets.map((s) => s.received.length)).toEqual([1, 1, 1, 0]);
    expect(late.received).toEqual([]);
  });

  it('abandons pending batches on closeAll', async () => {
    const { hub, sockets } = hubWith(3, 1);
    for (const socket of sockets) Object.assign(socket, { close() {}, terminate() {} });
    hub.broadcast('now-playing', { n: 'a' });
    hub.closeAll();
    await hub.idle();
    expect(sockets.map((s) => s.received.length)).toEqual([1, 0, 0]);
  });
});
