import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** What the proxy does with one request: answer it itself, or forward it (optionally rewriting the answer's JSON). */
export type ProxyRule = (request: {
  method: string;
  path: string;
  body: string;
}) => { answer: { status: number; json: unknown } } | { rewrite: (json: unknown) => unknown } | undefined;

/** How long the proxy holds a forwarded answer before passing it on (a provider whose answer times vary). */
export type AnswerDelay = (request: { method: string; path: string; body: string }, status: number) => number;

/** How long the proxy holds a request before forwarding it, so the provider sees it that much later (a slow sender). */
export type RequestDelay = (request: { method: string; path: string; body: string }) => number;

export interface RewritingProxy {
  url: string;
  /** Where requests go; set once the provider's address is known. */
  target: string;
  close(): Promise<void>;
}

const read = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};

/** A proxy on loopback in front of a real provider, rewriting some answers (issue 24's way of reproducing cases). */
export async function startRewritingProxy(
  rule: ProxyRule,
  answerDelay?: AnswerDelay,
  requestDelay?: RequestDelay,
): Promise<RewritingProxy> {
  const proxy: RewritingProxy = { url: '', target: '', close: async () => {} };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      const path = req.url ?? '/';
      const decided = rule({ method: req.method ?? 'GET', path, body });
      if (decided && 'answer' in decided) {
        res.writeHead(decided.answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(decided.answer.json));
        return;
      }
      const holdRequest = requestDelay?.({ method: req.method ?? 'GET', path, body }) ?? 0;
      if (holdRequest > 0) await delay(holdRequest);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host' && k !== 'content-length'),
      ) as Record<string, string>;
      const upstream = await fetch(`${proxy.target}${path}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
      });
      let text = await upstream.text();
      if (decided && 'rewrite' in decided) text = JSON.stringify(decided.rewrite(JSON.parse(text)));
      const held = answerDelay?.({ method: req.method ?? 'GET', path, body }, upstream.status) ?? 0;
      if (held > 0) await delay(held);
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return proxy;
}
