/**
 * A git remote over smart HTTP on 127.0.0.1: real `git http-backend` (CGI) behind a node server
 * that, like GitHub for a private repository, answers 401 to a request without the token's basic
 * auth (`x-access-token:<token>`, as actions/checkout sends it). Every request is recorded with
 * whether it carried the token, so a test can tell the action's own pushes from an agent's.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface GitHttpRequest {
  method: string;
  path: string;
  /** upload-pack (fetch, ls-remote) or receive-pack (push), from the URL. */
  service: 'upload-pack' | 'receive-pack' | 'other';
  authorized: boolean;
}

export interface GitHttpServer {
  /**
   * The server's origin as a run's GITHUB_SERVER_URL: http://github.localhost:<port>. A `.localhost`
   * name is loopback to git's curl, and the Actions cache and artifact clients take it for
   * github.com, not GHES (which they refuse); 127.0.0.1 would be GHES to them.
   */
  serverUrl: string;
  /** The clone URL of the bare repository. */
  url: string;
  requests: GitHttpRequest[];
  /** Calls `listener` with each authorized request before git answers it (a push's is the receive-pack POST). */
  observe(listener: (request: GitHttpRequest) => void): () => void;
  close(): Promise<void>;
}

export async function startGitHttpServer(opts: { gitDir: string; token: string }): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`x-access-token:${opts.token}`).toString('base64')}`;
  const requests: GitHttpRequest[] = [];
  const observers = new Set<(request: GitHttpRequest) => void>();
  const root = path.dirname(opts.gitDir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const service = /receive-pack/.test(url.pathname + url.search)
      ? 'receive-pack'
      : /upload-pack/.test(url.pathname + url.search)
        ? 'upload-pack'
        : 'other';
    // git sends "Basic" or "basic" (an extraheader is sent as written): the scheme is case-insensitive.
    // GitHub refuses a request with two Authorization headers (a persisted one and another).
    const headerCount = req.rawHeaders.filter(
      (_, i) => i % 2 === 0 && req.rawHeaders[i]?.toLowerCase() === 'authorization',
    ).length;
    if (headerCount > 1) {
      requests.push({ method: req.method ?? 'GET', path: url.pathname, service, authorized: false });
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Duplicate header: "Authorization"\n');
      req.resume();
      return;
    }
    const given = req.headers.authorization ?? '';
    const authorized = given.replace(/^basic /i, 'Basic ') === expected;
    requests.push({ method: req.method ?? 'GET', path: url.pathname, service, authorized });
    if (authorized) for (const listener of observers) listener(requests.at(-1) as GitHttpRequest);
    if (!authorized) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="GitHub"', 'Content-Type': 'text/plain' });
      res.end('Invalid username or token. Password authentication is not supported for Git operations.\n');
      req.resume();
      return;
    }
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.replace(/^\?/, ''),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: 'x-access-token', // an authenticated user may push (http.receivepack's default)
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let sentHead = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (sentHead) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      sentHead = true;
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => {
      if (!sentHead) res.writeHead(500).end();
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const serverUrl = `http://github.localhost:${(server.address() as AddressInfo).port}`;
  return {
    serverUrl,
    url: `${serverUrl}/${path.basename(opts.gitDir)}`,
    requests,
    observe(listener) {
      observers.add(listener);
      return () => observers.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
