import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that passed through the proxy, and the answer the service gave it. */
export interface ProxiedExchange {
  method: string;
  url: string;
  requestHeaders: IncomingHttpHeaders;
  status: number;
  responseHeaders: IncomingHttpHeaders;
  body: string;
  /** The service answered, and the client never got it: its connection was destroyed instead. */
  dropped: boolean;
}

type Match = (req: IncomingMessage) => boolean;

/** Hop-by-hop headers, and the framing the proxy sets again for the whole body it forwards. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection', 'te', 'upgrade']);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !NOT_FORWARDED.has(name)) kept[name] = value;
  return kept;
}

/**
 * An HTTP proxy in front of a real service that loses answers on purpose: the next request that
 * matches a `dropNext` rule is forwarded, the service's whole answer is read (it has committed
 * whatever it did), and then the client's connection is destroyed instead of being answered.
 * Everything else passes through unchanged.
 */
export class AnswerDroppingProxy {
  readonly exchanges: ProxiedExchange[] = [];
  baseUrl = '';
  #drops: Match[] = [];
  readonly #upstream: URL;
  readonly #server: Server;

  constructor(upstream: string) {
    this.#upstream = new URL(upstream);
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const dropIndex = this.#drops.findIndex((match) => match(req));
        const drop = dropIndex >= 0;
        if (drop) this.#drops.splice(dropIndex, 1);
        const forwarded = httpRequest(
          {
            host: this.#upstream.hostname,
            port: this.#upstream.port,
            method: req.method,
            path: req.url,
            headers: { ...forwardable(req.headers), 'content-length': String(body.length) },
            agent: false,
          },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => parts.push(chunk));
            answer.on('end', () => {
              const text = Buffer.concat(parts);
              this.exchanges.push({
                method: req.method ?? '',
                url: req.url ?? '',
                requestHeaders: req.headers,
                status: answer.statusCode ?? 0,
                responseHeaders: answer.headers,
                body: text.toString('utf8'),
                dropped: drop,
              });
              if (drop) return void req.socket.destroy();
              res.writeHead(answer.statusCode ?? 502, { ...forwardable(answer.headers), 'content-length': String(text.length) }).end(text);
            });
          },
        );
        forwarded.on('error', () => req.socket.destroy());
        forwarded.end(body);
      });
    });
  }

  /** The next request for which `match` holds is run by the service, and its answer lost. */
  dropNext(match: Match): void {
    this.#drops.push(match);
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}
