/**
 * The egress policy on its own: address classes, STATION_WEBHOOK_ALLOWED_HOSTS entries, the registration and
 * delivery checks over an in-memory resolver, and postPinned over real sockets on 127.0.0.1 (the connection
 * goes to the checked address whatever the name, and failures come back as coarse kinds).
 */
import { createServer, type Server, type IncomingHttpHeaders } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { classify } from '../../src/infra/egress/address-ranges.js';
import { AllowListError, parseAllowList } from '../../src/infra/egress/allow-list.js';
import { EgressPolicy, type HostResolver, type ResolvedAddress } from '../../src/infra/egress/egress-policy.js';
import { postPinned } from '../../src/infra/egress/pinned-post.js';

/** An in-memory DNS: names map to addresses; an unknown name fails like ENOTFOUND. */
function fakeDns(records: Record<string, string[]>): HostResolver & { records: Record<string, string[]> } {
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    const found = resolver.records[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  resolver.records = records;
  return resolver;
}

const policy = (text: string, dns: HostResolver = fakeDns({})) => new EgressPolicy(parseAllowList(text), dns);

describe('address classes', () => {
  it.each([
    ['8.8.8.8', 'external'],
    ['2606:4700:4700::1111', 'external'],
    ['100.128.0.1', 'external'],
    ['172.32.0.1', 'external'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['100.64.0.1', 'cgnat'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['192.0.2.1', 'special'],
    ['255.255.255.255', 'special'],
    ['2001:db8::1', 'special'],
    ['2002:7f00:1::', 'special'],
    ['::7f00:1', 'special'],
  ])('%s is %s', (address, kind) => {
    expect(classify(address)).toBe(kind);
  });

  it('classifies IPv4-mapped and NAT64 forms as the IPv4 address they carry', () => {
    expect(classify('::ffff:127.0.0.1')).toBe('loopback');
    expect(classify('::ffff:7f00:1')).toBe('loopback');
    expect(classify('::ffff:169.254.169.254')).toBe('link_local');
    expect(classify('::ffff:10.0.0.1')).toBe('private');
    expect(classify('::ffff:8.8.8.8')).toBe('external');
    expect(classify('64:ff9b::127.0.0.1')).toBe('loopback');
    expect(classify('64:ff9b::a9fe:a9fe')).toBe('link_local');
    expect(classify('64:ff9b::808:808')).toBe('external');
  });
});

describe('STATION_WEBHOOK_ALLOWED_HOSTS entries', () => {
  it('reads keywords, *, host names, wildcards, CIDRs and single addresses', () => {
    expect(parseAllowList('external')).toEqual({ any: false, keywords: ['external'], hosts: [], hostSuffixes: [], cidrs: [] });
    const list = parseAllowList(' Loopback , private,*, Hooks.Example.COM., *.corp.example, bücher.de, 10.20.0.0/16, [::1], fd00::/8 ');
    expect(list).toEqual({
      any: true,
      keywords: ['loopback', 'private'],
      hosts: ['hooks.example.com', 'xn--bcher-kva.de'],
      hostSuffixes: ['corp.example'],
      cidrs: [
        { address: '10.20.0.0', prefix: 16, family: 4 },
        { address: '::1', prefix: 128, family: 6 },
        { address: 'fd00::', prefix: 8, family: 6 },
      ],
    });
  });

  it.each([
    '',
    ',',
    'hooks.example.com:8443',
    'https://hooks.example.com',
    'user@hooks.example.com',
    'a*b.example',
    '*.',
    '10.0.0.0/33',
    '::/129',
    '1.2.3.4/',
    'x/8',
    '0x7f.1',
  ])('refuses %j', (text) => {
    expect(() => parseAllowList(text)).toThrow(AllowListError);
  });
});

describe('the policy', () => {
  it('external (the default) admits public addresses only', () => {
    const external = policy('external');
    expect(external.admits('8.8.8.8', '8.8.8.8')).toBe(true);
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      'fd00::1',
      'fe80::1',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
    ]) {
      expect(external.admits(address, address), address).toBe(false);
    }
  });

  it('loopback and private admit their classes and nothing else', () => {
    const loopback = policy('loopback');
    expect(loopback.admits('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(loopback.admits('::ffff:127.0.0.1', '::ffff:127.0.0.1')).toBe(true);
    expect(loopback.admits('8.8.8.8', '8.8.8.8')).toBe(false);
    expect(loopback.admits('10.0.0.1', '10.0.0.1')).toBe(false);
    const both = policy('external,private');
    expect(both.admits('10.0.0.1', '10.0.0.1')).toBe(true);
    expect(both.admits('fd00::1', 'fd00::1')).toBe(true);
    expect(both.admits('8.8.8.8', '8.8.8.8')).toBe(true);
    // The metadata service and CGNAT are in neither: only a CIDR entry (or *) reaches them.
    expect(both.admits('169.254.169.254', '169.254.169.254')).toBe(false);
    expect(both.admits('100.64.0.1', '100.64.0.1')).toBe(false);
    expect(policy('*').admits('169.254.169.254', '169.254.169.254')).toBe(true);
  });

  it('a CIDR admits exactly its range, in its IPv4-mapped form too', () => {
    const cidr = policy('10.20.0.0/16');
    expect(cidr.admits('x', '10.20.255.1')).toBe(true);
    expect(cidr.admits('x', '::ffff:10.20.0.9')).toBe(true);
    expect(cidr.admits('x', '10.21.0.1')).toBe(false);
    expect(cidr.admits('x', '8.8.8.8')).toBe(false);
  });

  it('a listed host name is admitted whatever it resolves to; a wildcard covers subdomains, not the name itself', () => {
    const hosts = policy('ci.internal,*.corp.example');
    expect(hosts.admits('ci.internal', '10.0.0.5')).toBe(true);
    expect(hosts.admits('CI.internal.', '10.0.0.5')).toBe(true);
    expect(hosts.admits('hooks.corp.example', '192.168.1.2')).toBe(true);
    expect(hosts.admits('a.b.corp.example', '192.168.1.2')).toBe(true);
    expect(hosts.admits('corp.example', '192.168.1.2')).toBe(false);
    expect(hosts.admits('evilcorp.example', '192.168.1.2')).toBe(false);
    expect(hosts.admits('other.internal', '10.0.0.5')).toBe(false);
  });

  it('registration refuses literal addresses and names that resolve only to refused addresses, and accepts unresolved names', async () => {
    const dns = fakeDns({ 'public.test': ['93.184.216.34'], 'internal.test': ['10.0.0.7', '::1'], 'mixed.test': ['127.0.0.1', '93.184.216.34'] });
    const external = policy('external', dns);
    expect(await external.screen('93.184.216.34')).toBe('allowed');
    expect(await external.screen('127.0.0.1')).toBe('refused');
    expect(await external.screen('[::ffff:7f00:1]')).toBe('refused');
    expect(await external.screen('public.test')).toBe('allowed');
    expect(await external.screen('internal.test')).toBe('refused');
    expect(await external.screen('mixed.test')).toBe('allowed');
    expect(await external.screen('nowhere.test')).toBe('unresolved');
  });

  it('delivery connects to an admitted address only, skipping refused ones, and re-resolves every time', async () => {
    const dns = fakeDns({ 'mixed.test': ['127.0.0.1', '10.0.0.1', '93.184.216.34'], 'rebind.test': ['93.184.216.34'] });
    const external = policy('external', dns);
    expect(await external.destination('mixed.test')).toEqual({ allowed: true, addresses: [{ address: '93.184.216.34', family: 4 }] });
    expect(await external.destination('rebind.test')).toMatchObject({ allowed: true });
    dns.records['rebind.test'] = ['127.0.0.1'];
    expect(await external.destination('rebind.test')).toEqual({ allowed: false, reason: 'refused' });
    expect(await external.destination('gone.test')).toEqual({ allowed: false, reason: 'unresolved' });
  });
});

describe('postPinned over real sockets', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function listen(server: Server): Promise<number> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  async function receiver(status: number) {
    const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        res.writeHead(status).end();
      });
    });
    return { port: await listen(server), seen };
  }

  const post = (egress: EgressPolicy, url: string, timeoutMs = 2_000) =>
    postPinned(egress, new URL(url), { body: '{"ok":true}', headers: { 'content-type': 'application/json' }, timeoutMs });

  it('connects to the address the policy checked, naming the host in the Host header', async () => {
    const r = await receiver(204);
    // hooks.test exists only in this resolver: the request can reach the receiver only through the pinned address.
    const egress = policy('loopback', fakeDns({ 'hooks.test': ['127.0.0.1'] }));
    expect(await post(egress, `http://hooks.test:${r.port}/in?x=1`)).toEqual({ kind: 'response', status: 204 });
    expect(r.seen).toHaveLength(1);
    expect(r.seen[0].headers.host).toBe(`hooks.test:${r.port}`);
    expect(r.seen[0].body).toBe('{"ok":true}');
  });

  it('falls back to the next checked address when one does not connect, and never to a refused one', async () => {
    const r = await receiver(200);
    // ::1 and 127.0.0.2 have no listener on this port; 10.0.0.1 is refused by the policy and never tried.
    const egress = policy('loopback', fakeDns({ 'dual.test': ['::1', '10.0.0.1', '127.0.0.2', '127.0.0.1'] }));
    expect(await post(egress, `http://dual.test:${r.port}/`)).toEqual({ kind: 'response', status: 200 });
    expect(r.seen).toHaveLength(1);
  });

  it('over TLS, names the host in SNI while connecting to the pinned address', async () => {
    const serverNames: string[] = [];
    // Records the ClientHello's server name, then ends the handshake (it has no certificate to offer).
    const tls = createTlsServer({
      SNICallback: (name, callback) => {
        serverNames.push(name);
        callback(new Error('no certificate here'), undefined);
      },
    });
    tls.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    servers.push(tls as unknown as Server);
    const port = (tls.address() as AddressInfo).port;
    const egress = policy('loopback', fakeDns({ 'hooks.test': ['127.0.0.1'] }));
    expect(await post(egress, `https://hooks.test:${port}/in`)).toEqual({ kind: 'connection_failed' });
    expect(serverNames).toEqual(['hooks.test']);
  });

  it('sends nothing to a refused address, by name or literal (mapped forms included)', async () => {
    const r = await receiver(200);
    const external = policy('external', fakeDns({ 'hooks.test': ['127.0.0.1'] }));
    expect(await post(external, `http://hooks.test:${r.port}/`)).toEqual({ kind: 'refused_by_policy' });
    expect(await post(external, `http://127.0.0.1:${r.port}/`)).toEqual({ kind: 'refused_by_policy' });
    expect(await post(external, `http://[::ffff:127.0.0.1]:${r.port}/`)).toEqual({ kind: 'refused_by_policy' });
    // localhost through the system resolver (/etc/hosts): loopback.
    expect(await post(new EgressPolicy(parseAllowList('external')), `http://localhost:${r.port}/`)).toEqual({ kind: 'refused_by_policy' });
    expect(r.seen).toHaveLength(0);
  });

  it('answers coarse kinds: a status, connection_failed, timeout', async () => {
    const loopback = policy('loopback');
    const unavailable = await receiver(503);
    expect(await post(loopback, `http://127.0.0.1:${unavailable.port}/`)).toEqual({ kind: 'response', status: 503 });

    const closed = createServer();
    const closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    servers.splice(servers.indexOf(closed), 1);
    expect(await post(loopback, `http://127.0.0.1:${closedPort}/`)).toEqual({ kind: 'connection_failed' });
    expect(await post(loopback, 'http://nowhere.invalid/')).toEqual({ kind: 'connection_failed' }); // does not resolve

    // Accepts the connection and never answers.
    const silent = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    servers.push(silent as unknown as Server);
    const silentPort = (silent.address() as AddressInfo).port;
    expect(await post(loopback, `http://127.0.0.1:${silentPort}/`, 300)).toEqual({ kind: 'timeout' });
  });
});
