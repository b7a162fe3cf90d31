/** Where a sign-in lands by the role claim of its token (web/src/listener/roles.ts; the browser side: listener-platform.test.ts). */
import { describe, expect, it } from 'vitest';
import { homeOf, isStaff, roleClaim } from '../../web/src/listener/roles.js';

const token = (payload: object) => `eyJhbGciOiJFZERTQSJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.signature`;

describe('the listener app’s role routing', () => {
  it('sends staff to /admin, artists to /studio, and keeps everyone else on the listener pages', () => {
    expect(homeOf('super_admin')).toBe('/admin');
    expect(homeOf('admin')).toBe('/admin');
    expect(homeOf('developer')).toBe('/admin');
    expect(homeOf('artist')).toBe('/studio');
    expect(homeOf('listener')).toBeNull();
    expect(homeOf('someone-new')).toBeNull();
    expect(isStaff('artist')).toBe(false);
  });

  it('reads the role claim of a JWT (base64url, unpadded) and nothing from a malformed one', () => {
    expect(roleClaim(token({ role: 'artist', sid: 's', typ: 'access', name: 'Zoë ~~~ ???' }))).toBe('artist');
    expect(roleClaim(token({ sid: 's' }))).toBeNull();
    expect(roleClaim('not-a-jwt')).toBeNull();
    expect(roleClaim('a.%%%.c')).toBeNull();
  });
});
