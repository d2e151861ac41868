import { Agent, request } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

/** One request with the path sent exactly as given (fetch would resolve `..` and tidy slashes). */
export function send(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  const body = options.body ?? '';
  const headers = { 'content-length': String(Buffer.byteLength(body)), ...options.headers };
  // Keep-alive, so a `connection: close` in the answer is the server's choice.
  const agent = new Agent({ keepAlive: true });
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  }).finally(() => agent.destroy());
}
