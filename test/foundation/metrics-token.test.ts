/** METRICS_TOKEN: when set, GET /metrics answers only a scraper presenting it as a bearer token (open otherwise: openapi.test.ts). */
import { describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';

const TOKEN = 'scrape-token-5f1c9a';

describe('GET /metrics with METRICS_TOKEN set', () => {
  const station = stationForSuite({ METRICS_TOKEN: TOKEN });

  const scrape = (authorization?: string) => station.http.inject({ url: '/metrics', headers: authorization === undefined ? {} : { authorization } });

  it('answers 401 in the error envelope without the token, with a wrong one, or with another scheme', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
      const response = await scrape(authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.json().error).toMatchObject({ http_status: 401, code: expect.stringMatching(/_AUTH_REQUIRED$/) });
      expect(response.body).not.toContain('http_requests_total');
    }
  });

  it('answers 200 with the metrics for the right token', async () => {
    for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`]) {
      const response = await scrape(authorization);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('# TYPE http_requests_total counter');
    }
  });
});
