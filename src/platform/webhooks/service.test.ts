/**
 * Webhook registration's rules (a user owns each webhook, known events only, who may hear which event, the
 * egress screen, the secret shown once and stored sealed; owners, admins and environments when listing and
 * removing), tested beside the service on an in-memory registry: no database, milliseconds. Delivery and the
 * SQL behind the registry are covered by test/platform/webhooks*.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { domainFailure as failure } from '../../../test/helpers/domain-failure.js';
import type { Screening } from '../../infra/egress/egress-policy.js';
import type { WebhookRepository, WebhookRow } from './repository.js';
import { SecretBox } from './secret-box.js';
import { WebhookService, type WebhookCaller } from './service.js';

type Registry = Pick<WebhookRepository, 'insertWebhook' | 'listWebhooks' | 'findWebhook' | 'deleteWebhook' | 'listDeliveries'>;

/** The registry's contract in memory, in insertion order. */
class InMemoryRegistry implements Registry {
  readonly rows = new Map<string, WebhookRow>();

  async insertWebhook(row: Parameters<Registry['insertWebhook']>[0]): Promise<WebhookRow> {
    const stored: WebhookRow = {
      id: row.id!,
      ownerUserId: row.ownerUserId,
      url: row.url,
      events: row.events,
      secretCiphertext: row.secretCiphertext,
      active: true,
      environment: row.environment ?? 'live',
      createdAt: new Date('2026-01-01T00:00:00Z'),
    } as WebhookRow;
    this.rows.set(stored.id, stored);
    return stored;
  }

  async listWebhooks(ownerUserId: string | null, environment: 'live' | 'test', limit: number, offset: number) {
    const all = [...this.rows.values()].filter((r) => r.environment === environment && (ownerUserId === null || r.ownerUserId === ownerUserId));
    return { rows: all.slice(offset, offset + limit), total: all.length };
  }

  async findWebhook(id: string) {
    return this.rows.get(id) ?? null;
  }

  async deleteWebhook(id: string) {
    return this.rows.delete(id);
  }

  async listDeliveries() {
    return { rows: [], total: 0 };
  }
}

const caller = (userId: string | null, options: Partial<WebhookCaller> = {}): WebhookCaller => ({
  userId,
  isAdmin: false,
  stationScopes: [],
  environment: 'live',
  ...options,
});

describe('WebhookService (in-memory registry)', () => {
  let registry: InMemoryRegistry;
  let box: SecretBox;
  let service: WebhookService;
  const screened: string[] = [];

  beforeEach(() => {
    registry = new InMemoryRegistry();
    box = new SecretBox(randomBytes(32));
    screened.length = 0;
    const egress = {
      screen: async (host: string): Promise<Screening> => {
        screened.push(host);
        return host === 'internal.example' ? 'refused' : 'allowed';
      },
    };
    service = new WebhookService(registry, box, egress);
  });

  it('registers for a user: the URL normalised, events deduplicated, the secret answered once and stored sealed to the row', async () => {
    const made = await service.register(caller('u1'), { url: ' https://hooks.example/in ', events: ['track.published', 'track.published'] });
    expect(made).toMatchObject({ url: 'https://hooks.example/in', events: ['track.published'] });
    expect(made.secret.length).toBeGreaterThan(20);
    const row = registry.rows.get(made.id)!;
    expect(row).toMatchObject({ ownerUserId: 'u1', environment: 'live' });
    expect(row.secretCiphertext).not.toContain(made.secret);
    expect(box.open(row.secretCiphertext, made.id)).toBe(made.secret);
    expect(screened).toEqual(['hooks.example']);
  });

  it('refuses a caller without a user, no events, unknown events, bad URLs and refused hosts, storing nothing', async () => {
    expect(await failure(service.register(caller(null, { isAdmin: true }), { url: 'https://a.example', events: ['track.published'] }))).toMatchObject({
      kind: 'forbidden',
    });
    for (const input of [
      { url: 'https://a.example', events: [] },
      { url: 'https://a.example', events: ['track.exploded'] },
      { url: 'ftp://a.example', events: ['track.published'] },
      { url: 'https://user:pw@a.example', events: ['track.published'] },
      { url: `https://a.example/${'x'.repeat(2048)}`, events: ['track.published'] },
      { url: 'https://internal.example/hook', events: ['track.published'] },
    ]) {
      expect(await failure(service.register(caller('u1'), input))).toMatchObject({ kind: 'invalid' });
    }
    expect(registry.rows.size).toBe(0);
  });

  it('lets only admins hear admin events, and only live station-scoped callers hear station events', async () => {
    expect(await failure(service.register(caller('u1'), { url: 'https://a.example', events: ['user.signup'] }))).toMatchObject({ kind: 'invalid' });
    await service.register(caller('a1', { isAdmin: true }), { url: 'https://a.example', events: ['user.signup'] });
    expect(await failure(service.register(caller('u1'), { url: 'https://a.example', events: ['station.radio.enabled'] }))).toMatchObject({ kind: 'invalid' });
    const sandbox = caller('u1', { stationScopes: ['station:read'], environment: 'test' });
    expect(await failure(service.register(sandbox, { url: 'https://a.example', events: ['station.radio.enabled'] }))).toMatchObject({ kind: 'invalid' });
    await service.register(caller('u1', { stationScopes: ['station:read'] }), { url: 'https://a.example', events: ['station.radio.enabled'] });
    // Anyone may ask for their own resources' events: each is delivered to the owner and admins only.
    await service.register(caller('u2'), { url: 'https://a.example', events: ['payment.success'] });
    expect(registry.rows.size).toBe(3);
  });

  it("shows and removes a user's own webhooks only, in the caller's environment; admins see everyone's", async () => {
    const mine = await service.register(caller('u1'), { url: 'https://a.example', events: ['track.published'] });
    const theirs = await service.register(caller('u2'), { url: 'https://b.example', events: ['track.published'] });
    const sandbox = await service.register(caller('u1', { environment: 'test' }), { url: 'https://c.example', events: ['track.published'] });

    expect((await service.list(caller('u1'), 10, 0)).data.map((w) => w.id)).toEqual([mine.id]);
    expect((await service.list(caller('u1', { environment: 'test' }), 10, 0)).data.map((w) => w.id)).toEqual([sandbox.id]);
    expect((await service.list(caller('a1', { isAdmin: true }), 10, 0)).total).toBe(2);
    expect(await service.list(caller(null), 10, 0)).toEqual({ data: [], total: 0 });

    // Someone else's, or one of the other environment, is 404 like a missing one.
    expect(await failure(service.remove(caller('u1'), theirs.id))).toMatchObject({ kind: 'not_found' });
    expect(await failure(service.remove(caller('u1'), sandbox.id))).toMatchObject({ kind: 'not_found' });
    expect(await failure(service.deliveries(caller('u1'), theirs.id, 10, 0))).toMatchObject({ kind: 'not_found' });
    await service.remove(caller('a1', { isAdmin: true }), theirs.id);
    await service.remove(caller('u1'), mine.id);
    expect([...registry.rows.keys()]).toEqual([sandbox.id]);
  });
});
