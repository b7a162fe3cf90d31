/**
 * A TCP proxy between a client under test and a real server (PostgreSQL, Redis), to break the network
 * between them on demand: `cut()` resets every connection (both ends see it at once), `stall()` is a
 * partition (bytes and closes stop crossing, in both directions, and new connections hang), `heal()` ends it.
 */
import net, { type AddressInfo, type Socket } from 'node:net';

interface Pair {
  client: Socket;
  upstream: Socket | null;
  /** What one side sent (or its close, as null) while the network was stalled, for the other side. */
  toUpstream: (Buffer | null)[];
  toClient: (Buffer | null)[];
}

export class TcpProxy {
  private readonly pairs = new Set<Pair>();
  private stalled = false;
  /** Connections accepted since the start. */
  accepted = 0;

  private constructor(
    private readonly server: net.Server,
    private readonly target: { host: string; port: number },
  ) {}

  /** Listens on a free loopback port in front of `targetUrl`'s host and port. */
  static async start(targetUrl: string): Promise<TcpProxy> {
    const url = new URL(targetUrl);
    const target = { host: url.hostname, port: Number(url.port) };
    const server = net.createServer();
    const proxy = new TcpProxy(server, target);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  url(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String((this.server.address() as AddressInfo).port);
    return proxied.toString();
  }

  connections(): number {
    return this.pairs.size;
  }

  /** Resets every connection through the proxy (an RST each way); new connections go through. */
  cut(): void {
    for (const pair of [...this.pairs]) this.destroy(pair);
  }

  stall(): void {
    this.stalled = true;
  }

  heal(): void {
    this.stalled = false;
    for (const pair of [...this.pairs]) {
      if (!pair.upstream) this.connectUpstream(pair);
      this.flush(pair);
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.accepted++;
    const pair: Pair = { client, upstream: null, toUpstream: [], toClient: [] };
    this.pairs.add(pair);
    client.on('data', (chunk) => this.forward(pair, 'toUpstream', chunk));
    client.on('end', () => this.forward(pair, 'toUpstream', null));
    client.on('error', () => this.destroy(pair));
    client.on('close', () => this.pairs.delete(pair));
    if (!this.stalled) this.connectUpstream(pair);
  }

  private connectUpstream(pair: Pair): void {
    const upstream = net.connect(this.target.port, this.target.host);
    pair.upstream = upstream;
    upstream.on('data', (chunk) => this.forward(pair, 'toClient', chunk));
    upstream.on('end', () => this.forward(pair, 'toClient', null));
    upstream.on('error', () => this.destroy(pair));
    upstream.on('connect', () => this.flush(pair));
  }

  private forward(pair: Pair, direction: 'toUpstream' | 'toClient', chunk: Buffer | null): void {
    pair[direction].push(chunk);
    if (!this.stalled) this.flush(pair);
  }

  private flush(pair: Pair): void {
    const { upstream, client } = pair;
    if (upstream && !upstream.connecting) {
      for (const chunk of pair.toUpstream.splice(0)) {
        if (chunk) upstream.write(chunk);
        else upstream.end();
      }
    }
    for (const chunk of pair.toClient.splice(0)) {
      if (chunk) client.write(chunk);
      else client.end();
    }
  }

  private destroy(pair: Pair): void {
    this.pairs.delete(pair);
    for (const socket of [pair.client, pair.upstream]) if (socket && !socket.destroyed) socket.resetAndDestroy();
  }
}
