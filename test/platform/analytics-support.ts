/** Helpers of the analytics suites: a small catalog, play events and orders written straight to the database, an SSE reader. */
import { randomBytes, randomUUID } from 'node:crypto';
import { get as httpGet, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { sql } from 'drizzle-orm';
import type { Station } from '../../src/app.js';
import { artists, playEvents, storeCheckoutSessions, storeOrders, storeProducts, tracks, userProfiles } from '../../src/infra/db/schema/index.js';
import type { DeviceClass } from '../../src/platform/analytics/device-class.js';

export interface CatalogArtist {
  id: string;
  slug: string;
  trackIds: string[];
}

/** An artist owned by `ownerUserId` with `count` tracks that have audio. */
export async function seedArtist(station: Station, ownerUserId: string | null, count: number, environment: 'live' | 'test' = 'live'): Promise<CatalogArtist> {
  const slug = `analytics-${randomBytes(4).toString('hex')}`;
  const id = randomUUID();
  const { db } = station.database;
  await db.insert(artists).values({ id, environment, slug, name: `Artist ${slug}`, genre: 'electronic', ownerUserId });
  const trackIds = Array.from({ length: count }, () => randomUUID());
  await db.insert(tracks).values(
    trackIds.map((trackId, i) => ({
      id: trackId,
      environment,
      slug: `${slug}-t${i}`,
      title: `${slug} track ${i + 1}`,
      artistId: id,
      genre: 'electronic',
      durationSec: 120 + i,
      audioBlobKey: `audio/${trackId}.mp3`,
      audioFormat: 'mp3',
    })),
  );
  return { id, slug, trackIds };
}

export async function setProfile(station: Station, userId: string, profile: { country?: string | null; birthYear?: number | null }) {
  await station.database.db
    .insert(userProfiles)
    .values({ userId, country: profile.country ?? null, birthYear: profile.birthYear ?? null })
    .onConflictDoUpdate({ target: userProfiles.userId, set: { country: profile.country ?? null, birthYear: profile.birthYear ?? null } });
}

export interface Play {
  trackId: string;
  at: string;
  userId?: string | null;
  device?: DeviceClass | null;
  country?: string | null;
}

/** Play events as the recorders write them: a listener's stream (user, device, country) or a radio airing (none). */
export async function insertPlays(station: Station, plays: Play[]) {
  await station.database.db.insert(playEvents).values(
    plays.map((play) => ({
      trackId: play.trackId,
      userId: play.userId ?? null,
      source: play.userId ? ('on_demand' as const) : ('radio' as const),
      playedAt: new Date(play.at),
      deviceClass: play.device ?? null,
      country: play.country ?? null,
    })),
  );
}

/**
 * A completed order (product, paid checkout session, order with the 85/15 split), as the store records one: by
 * default live money (Stripe); `livemode: false` a sandbox order, of the sandbox unless `environment` says
 * 'live' (a demo store's sandbox payment for a live product).
 */
export async function insertOrder(
  station: Station,
  order: { artistId: string; userId: string; amountCents: number; currency?: string; at: string; livemode?: boolean; environment?: 'live' | 'test' },
) {
  const { db } = station.database;
  const currency = order.currency ?? 'usd';
  const livemode = order.livemode ?? true;
  const environment = order.environment ?? (livemode ? 'live' : 'test');
  const processor = livemode ? ('stripe' as const) : ('sandbox' as const);
  const fee = Math.floor((order.amountCents * 15) / 100);
  const [product] = await db
    .insert(storeProducts)
    .values({ artistId: order.artistId, type: 'single', title: 'Single', priceCents: order.amountCents, currency })
    .returning({ id: storeProducts.id });
  const [session] = await db
    .insert(storeCheckoutSessions)
    .values({
      userId: order.userId,
      productId: product.id,
      artistId: order.artistId,
      amountCents: order.amountCents,
      platformFeeCents: fee,
      currency,
      processor,
      livemode,
      environment,
      processorSessionId: `cs_${randomBytes(6).toString('hex')}`,
      status: 'completed',
    })
    .returning({ id: storeCheckoutSessions.id });
  const [row] = await db
    .insert(storeOrders)
    .values({
      checkoutSessionId: session.id,
      userId: order.userId,
      productId: product.id,
      artistId: order.artistId,
      amountCents: order.amountCents,
      platformFeeCents: fee,
      artistShareCents: order.amountCents - fee,
      currency,
      processor,
      livemode,
      environment,
      processorReference: `ref_${randomBytes(6).toString('hex')}`,
      createdAt: new Date(order.at),
    })
    .returning({ id: storeOrders.id });
  return { productId: product.id, orderId: row.id };
}

export async function setCreatedAt(station: Station, userIds: string[], at: string) {
  for (const id of userIds) await station.database.db.execute(sql`update users set created_at = ${at}::timestamptz where id = ${id}`);
}

export interface SseFrame {
  id?: string;
  event?: string;
  data?: any;
  comment?: string;
  retry?: number;
}

/** Parses one SSE frame (the lines between blank lines). */
function parseFrame(block: string): SseFrame {
  const frame: SseFrame = {};
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    else {
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') frame.id = value;
      else if (field === 'event') frame.event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry') frame.retry = Number(value);
    }
  }
  if (data.length > 0) frame.data = JSON.parse(data.join('\n'));
  return frame;
}

/**
 * An SSE client over a real socket, keeping every frame in order. node:http rather than fetch: closing it
 * destroys the socket at once, where an aborted fetch leaves the server a connection to wait for on close.
 */
export class SseClient {
  readonly frames: SseFrame[] = [];
  ended = false;
  private readonly waiters = new Set<() => void>();
  private constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly request: ClientRequest,
  ) {}

  static open(url: string, headers: Record<string, string>): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const request = httpGet(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
        const client = new SseClient(response.statusCode ?? 0, response.headers, request);
        if (client.status !== 200) {
          let body = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          response.on('end', () => {
            client.frames.push({ data: JSON.parse(body) });
            client.ended = true;
            resolve(client);
          });
          return;
        }
        client.pump(response);
        resolve(client);
      });
      request.on('error', reject);
    });
  }

  private pump(response: IncomingMessage) {
    let buffer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        this.frames.push(parseFrame(buffer.slice(0, end)));
        buffer = buffer.slice(end + 2);
      }
      this.notify();
    });
    response.on('close', () => {
      this.ended = true;
      this.notify();
    });
  }

  private notify() {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** The first frame after index `from` that matches; fails after `timeoutMs` naming what never came. */
  async next(what: string, match: (frame: SseFrame) => boolean, from = 0, timeoutMs = 15_000): Promise<SseFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.slice(from).find(match);
      if (found) return found;
      if (this.ended) throw new Error(`${what}: the stream ended; frames ${JSON.stringify(this.frames).slice(-600)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what}: not within ${timeoutMs} ms; frames ${JSON.stringify(this.frames).slice(-600)}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.add(done);
      });
    }
  }

  /** Frames that carry an event id (replayable events and snapshots), in order. */
  events(): SseFrame[] {
    return this.frames.filter((frame) => frame.id !== undefined);
  }

  /** Waits until the server ends the stream. */
  async closedByServer(timeoutMs = 15_000): Promise<void> {
    await this.next('the end of the stream', () => false, 0, timeoutMs).catch((error: Error) => {
      if (!this.ended) throw error;
    });
  }

  close() {
    this.request.destroy();
  }
}
