/**
 * A stand-in, on 127.0.0.1 (ephemeral port), for the services the real `@actions/cache` v6 and
 * `@actions/artifact` v6 clients talk to inside a GitHub Actions job, as those clients' sources
 * use them (node_modules/@actions/{cache,artifact}/lib):
 *
 * Results service (ACTIONS_RESULTS_URL; Twirp, JSON with proto field names, int64 as strings;
 * `Authorization: Bearer <ACTIONS_RUNTIME_TOKEN>`; errors are `{code, msg}` with the Twirp status):
 *   POST /twirp/github.actions.results.api.v1.CacheService/GetCacheEntryDownloadURL
 *        {key, restore_keys, version} → {ok, signed_download_url, matched_key}; ok:false on a miss.
 *        Matching as GitHub documents it: exact `key`, then `key` as a prefix, then each restore
 *        key exact then as a prefix; among prefix matches the newest entry wins; the version
 *        (hash of paths + compression) must be equal; only the scopes of the token's `ac` claim.
 *   POST …/CacheService/CreateCacheEntry {key, version} → {ok, signed_upload_url}; the same key and
 *        version again in the same scope is `already_exists` (409), like the real service.
 *   POST …/CacheService/FinalizeCacheEntryUpload {key, version, size_bytes} → {ok, entry_id};
 *        the blob must be there with that size.
 *   POST /twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact
 *        {workflow_run_backend_id, workflow_job_run_backend_id, name, expires_at, version, mime_type}
 *        → {ok, signed_upload_url}; the ids must be the token's (`scp` Actions.Results:<run>:<job>);
 *        a name already finalized in the run is `already_exists`.
 *   POST …/ArtifactService/FinalizeArtifact {…, name, size, hash} → {ok, artifact_id}
 *   POST …/ArtifactService/ListArtifacts {…, name_filter, id_filter} → {artifacts: [MonolithArtifact]}
 *        (the token's run only, as the real service does)
 *   POST …/ArtifactService/GetSignedArtifactURL {…, name} → {signed_url}
 *   POST …/ArtifactService/DeleteArtifact {…, name} → {ok, artifact_id}
 *
 * Blob storage (the signed URLs; Azure Blob semantics as @azure/storage-blob speaks them; the
 * signature is checked and `sp` must allow the operation). By default the URLs are
 * `http://devstoreaccount1.blob.core.windows.net/<container>/<blob>?sv=…&se=…&sp=…&sig=…` and this
 * server is also the HTTP proxy that reaches them (absolute-form requests from the Azure SDK,
 * CONNECT tunnels from @actions/http-client), so the clients take the code paths they take on
 * github.com; `blobEndpoint: 'ip'` gives Azurite-style `http://127.0.0.1:<port>/devstoreaccount1/…`:
 *   PUT  (x-ms-blob-type: BlockBlob)        Put Blob, one shot: the cache client's uploadFile for
 *                                           archives up to 128 MiB
 *   PUT  ?comp=block&blockid=<base64>       Put Block (the artifact client's uploadStream always
 *                                           stages blocks, and the cache client above 128 MiB)
 *   PUT  ?comp=blocklist  <BlockList> XML   Put Block List (x-ms-blob-content-type kept)
 *   GET / HEAD  (Range / x-ms-range)        Get Blob / Get Blob Properties; 206 for a range. For
 *                                           *.blob.core.windows.net the cache client restores with
 *                                           the SDK (HEAD, then ranged GETs in 4 MiB blocks); any
 *                                           other host it GETs whole with its plain http-client,
 *                                           checking Content-Length. Artifacts are always one GET.
 *
 * GitHub REST (GITHUB_API_URL; `Authorization: token <GITHUB_TOKEN>`), for artifacts of other runs:
 *   GET /repos/{o}/{r}/actions/artifacts?name=&per_page=&page=     newest first
 *   GET /repos/{o}/{r}/actions/runs/{run_id}/artifacts?name=&per_page=&page=
 *   GET /repos/{o}/{r}/actions/artifacts/{id}
 *   GET /repos/{o}/{r}/actions/artifacts/{id}/zip                 302 to a signed blob URL
 *                                                                (410 when expired)
 *
 * ACTIONS_RUNTIME_TOKEN is an HS256 JWT signed by this server: `scp` = "Actions.GenericRead:<run>
 * Actions.UploadArtifacts:<run>:<job> Actions.Results:<run>:<job>" (the artifact client decodes
 * it for the two backend ids; the cache client only forwards it), `ac` = the cache scopes as the
 * runner's token carries them, a JSON string `[{"Scope":"<ref>","Permission":3}]` (write to the
 * run's ref; read-only to the default branch when that differs).
 *
 * The emulator also owns a scratch root with `workspace/` (GITHUB_WORKSPACE: the cache client tars
 * paths relative to it) and `runner-temp/` (RUNNER_TEMP: where both clients put their archives).
 * Not emulated: cache service v1 (`_apis/artifactcache`; ACTIONS_CACHE_URL is set for completeness
 * but v2 never uses it), GHES, rate limits and 5xx (both clients retry those with real sleeps).
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { promises as fs, mkdtempSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface RunRef {
  runId: number;
  attempt: number;
  /** GITHUB_REF of the run; refs/heads/main unless told. */
  ref?: string;
}

export interface CacheEntryInfo {
  id: number;
  key: string;
  version: string;
  scope: string;
  size: number;
  createdAt: Date;
  /** Created by this run. */
  runId: number;
  attempt: number;
}

export interface ArtifactInfo {
  id: number;
  name: string;
  runId: number;
  attempt: number;
  size: number;
  digest: string | undefined;
  createdAt: Date;
  expiresAt: Date | undefined;
  expired: boolean;
}

export interface RecordedCall {
  method: string;
  /** Path without the query string. */
  path: string;
  query: string;
  status: number;
}

export interface ActionsServices {
  /** http://127.0.0.1:<port> */
  url: string;
  /** owner/name the REST endpoints answer for. */
  repository: string;
  /** The GITHUB_TOKEN the REST endpoints accept. */
  githubToken: string;
  /** GITHUB_WORKSPACE of every run (one path, like a hosted runner; the test clears what it needs). */
  workspace: string;
  /** RUNNER_TEMP of every run. */
  runnerTemp: string;
  /** The environment a job of this run sees (the runner's variables the two clients read). */
  env(run: RunRef): Record<string, string>;
  /** Drops finalized cache entries whose key starts with the prefix (all without one), like the 7-day eviction; the keys dropped. */
  evictCache(keyPrefix?: string): string[];
  /** Replaces the stored archive of a cache entry (a corrupt or truncated upload); `mutate` gets the current bytes. */
  corruptCache(key: string, mutate: (archive: Buffer) => Buffer): void;
  /** Marks an artifact expired (REST lists it with expired: true; its zip answers 410). */
  expireArtifact(id: number): void;
  /** Finalized cache entries, oldest first. */
  caches(): CacheEntryInfo[];
  /** Finalized artifacts, oldest first. */
  artifacts(): ArtifactInfo[];
  /** The bytes uploaded for a finalized cache entry (a tar, zstd-compressed), as a later run would download them. */
  cacheArchive(key: string): Buffer;
  /** The bytes uploaded for a finalized artifact (a zip). */
  artifactZip(id: number): Buffer;
  /** Every request answered, in order. */
  calls(): RecordedCall[];
  close(): Promise<void>;
}

const ACCOUNT = 'devstoreaccount1';
const BLOB_HOST = `${ACCOUNT}.blob.core.windows.net`;
const CACHE_SERVICE = 'github.actions.results.api.v1.CacheService';
const ARTIFACT_SERVICE = 'github.actions.results.api.v1.ArtifactService';
const DEFAULT_BRANCH = 'refs/heads/main';
const URL_LIFETIME_MS = 60 * 60 * 1000;

interface Blob {
  data: Buffer | undefined;
  contentType: string | undefined;
  blocks: Map<string, Buffer>;
  etag: string;
  lastModified: Date;
}

interface CacheEntry {
  id: number;
  key: string;
  version: string;
  scope: string;
  blob: string;
  size: number;
  finalized: boolean;
  seq: number;
  createdAt: Date;
  runId: number;
  attempt: number;
}

interface Artifact {
  id: number;
  name: string;
  runId: number;
  attempt: number;
  runBackendId: string;
  jobBackendId: string;
  blob: string;
  size: number;
  digest: string | undefined;
  mimeType: string | undefined;
  finalized: boolean;
  createdAt: Date;
  expiresAt: Date | undefined;
  expired: boolean;
}

interface Job {
  runId: number;
  attempt: number;
  ref: string;
  runBackendId: string;
  jobBackendId: string;
}

interface Claims {
  scp: string;
  ac: string;
  run: Job;
  /** Scopes readable and the one writable, from `ac`. */
  read: string[];
  write: string | undefined;
}

class TwirpError extends Error {
  constructor(
    readonly code:
      | 'not_found'
      | 'already_exists'
      | 'unauthenticated'
      | 'permission_denied'
      | 'invalid_argument'
      | 'failed_precondition',
    message: string,
  ) {
    super(message);
  }
  get status(): number {
    return {
      not_found: 404,
      already_exists: 409,
      unauthenticated: 401,
      permission_denied: 403,
      invalid_argument: 400,
      failed_precondition: 412,
    }[this.code];
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly azureCode?: string,
  ) {
    super(message);
  }
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** A UUID-shaped id derived from a seed, so a run keeps its backend ids across env() calls. */
function backendId(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A proto JSON field, written with its proto name (what the clients send) or its JSON name. */
function field(body: Record<string, unknown>, protoName: string): unknown {
  if (protoName in body) return body[protoName];
  const camel = protoName.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return body[camel];
}

function str(body: Record<string, unknown>, protoName: string): string {
  const v = field(body, protoName);
  return typeof v === 'string' ? v : '';
}

/** A google.protobuf wrapper (StringValue / Int64Value) in proto JSON is the bare value; tolerate {value}. */
function wrapped(body: Record<string, unknown>, protoName: string): string | undefined {
  const v = field(body, protoName);
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  if (v && typeof v === 'object' && 'value' in v) return String((v as { value: unknown }).value);
  return undefined;
}

export interface ActionsServicesOptions {
  repository?: string;
  /**
   * How the signed blob URLs look. 'azure' (default): `http://devstoreaccount1.blob.core.windows.net/…`
   * as on github.com, reached through this server as an HTTP proxy (env() sets HTTP_PROXY; the
   * clients bypass it for 127.0.0.1), so the cache client takes its production path, the Azure
   * SDK (Get Blob Properties, then ranged Get Blob). 'ip': `http://127.0.0.1:<port>/devstoreaccount1/…`
   * (Azurite style, no proxy), for which the cache client downloads with a plain GET instead.
   */
  blobEndpoint?: 'azure' | 'ip';
  /**
   * Where GitHub REST requests other than the artifact ones (`/repos/{repository}/actions/artifacts…`,
   * `…/actions/runs/…`) go, the Actions settings included (GITHUB_API_URL is one
   * URL on a runner): e.g. the GitHub issues fake's URL. They are forwarded as they came, headers
   * and body included. Without it they answer 404.
   */
  restFallback?: string;
  /** The token GITHUB_TOKEN holds and the REST endpoints accept (default a random `ghs_` one). */
  githubToken?: string;
}

export async function startActionsServices(options: ActionsServicesOptions = {}): Promise<ActionsServices> {
  const repository = options.repository ?? 'octo-org/agent-repo';
  const azureStyle = (options.blobEndpoint ?? 'azure') === 'azure';
  const secret = randomBytes(32);
  const githubToken = options.githubToken ?? `ghs_${randomBytes(18).toString('hex')}`;
  const root = mkdtempSync(path.join(os.tmpdir(), 'agent-loop-actions-'));
  const workspace = path.join(root, 'workspace');
  const runnerTemp = path.join(root, 'runner-temp');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(runnerTemp, { recursive: true });

  const blobs = new Map<string, Blob>();
  const cacheEntries: CacheEntry[] = [];
  const artifactList: Artifact[] = [];
  const jobs = new Map<string, Job>(); // by job backend id
  const calls: RecordedCall[] = [];
  let nextCacheId = 1;
  let nextArtifactId = 1000;
  let seq = 0;
  let base = '';

  // ---- signing -------------------------------------------------------------------------------

  function sign(text: string): string {
    return createHmac('sha256', secret).update(text).digest('base64url');
  }

  function issueRuntimeToken(job: Job): string {
    const scopes = [{ Scope: job.ref, Permission: 3 }];
    if (job.ref !== DEFAULT_BRANCH) scopes.push({ Scope: DEFAULT_BRANCH, Permission: 1 });
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      nameid: 'dddddddd-dddd-dddd-dddd-dddddddddddd',
      scp: `Actions.GenericRead:${job.runBackendId} Actions.UploadArtifacts:${job.runBackendId}:${job.jobBackendId} Actions.Results:${job.runBackendId}:${job.jobBackendId}`,
      ac: JSON.stringify(scopes),
      orchid: `${job.runBackendId}.agent.__default`,
      iss: 'vstoken.actions.githubusercontent.com',
      aud: 'vso:emulator',
      nbf: now - 60,
      iat: now,
      exp: now + 6 * 3600,
    };
    const head = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
    const body = b64url(JSON.stringify(payload));
    return `${head}.${body}.${sign(`${head}.${body}`)}`;
  }

  function verifyRuntimeToken(header: string | undefined): Claims {
    const m = /^Bearer (.+)$/.exec(header ?? '');
    if (!m?.[1]) throw new TwirpError('unauthenticated', 'missing bearer token');
    const [head, body, sig] = m[1].split('.');
    if (!head || !body || !sig) throw new TwirpError('unauthenticated', 'malformed token');
    const expected = Buffer.from(sign(`${head}.${body}`));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new TwirpError('unauthenticated', 'bad token signature');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
      scp?: string;
      ac?: string;
      exp?: number;
    };
    if (!payload.exp || payload.exp * 1000 < Date.now()) throw new TwirpError('unauthenticated', 'token expired');
    const results = (payload.scp ?? '').split(' ').find((s) => s.startsWith('Actions.Results:'));
    const [, , jobId] = (results ?? '').split(':');
    const run = jobId ? jobs.get(jobId) : undefined;
    if (!run) throw new TwirpError('unauthenticated', 'token has no Actions.Results scope of a known job');
    const ac = JSON.parse(payload.ac ?? '[]') as Array<{ Scope: string; Permission: number }>;
    return {
      scp: payload.scp ?? '',
      ac: payload.ac ?? '',
      run,
      read: ac.filter((s) => (s.Permission & 1) !== 0).map((s) => s.Scope),
      write: ac.find((s) => (s.Permission & 2) !== 0)?.Scope,
    };
  }

  /** The signature covers the blob path (container/blob), the permissions and the expiry. */
  function signedUrl(blobPath: string, perms: string): string {
    const se = new Date(Date.now() + URL_LIFETIME_MS).toISOString();
    const q = new URLSearchParams({
      sv: '2024-11-04',
      se,
      sr: 'b',
      sp: perms,
      sig: sign(`${perms}\n${se}\n${blobPath}`),
    });
    return `${azureStyle ? `http://${BLOB_HOST}` : `${base}/${ACCOUNT}`}/${blobPath}?${q.toString()}`;
  }

  function checkSas(url: URL, blobPath: string, need: string): void {
    const sp = url.searchParams.get('sp') ?? '';
    const se = url.searchParams.get('se') ?? '';
    const sig = url.searchParams.get('sig') ?? '';
    if (sig !== sign(`${sp}\n${se}\n${blobPath}`))
      throw new HttpError(403, 'Server failed to authenticate the request.', 'AuthenticationFailed');
    if (!(Date.parse(se) > Date.now()))
      throw new HttpError(403, 'Signed expiry time has passed.', 'AuthenticationFailed');
    for (const p of need)
      if (!sp.includes(p))
        throw new HttpError(
          403,
          `This request is not authorized to perform this operation using this permission (needs ${need}).`,
          'AuthorizationPermissionMismatch',
        );
  }

  // ---- blob storage ----------------------------------------------------------------------------

  function blobHeaders(blob: Blob): Record<string, string> {
    return {
      ETag: blob.etag,
      'Last-Modified': blob.lastModified.toUTCString(),
      'x-ms-request-id': randomUUID(),
      'x-ms-version': '2024-11-04',
      Date: new Date().toUTCString(),
    };
  }

  function touch(blob: Blob): void {
    blob.etag = `"0x${randomBytes(8).toString('hex').toUpperCase()}"`;
    blob.lastModified = new Date();
  }

  function handleBlob(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    blobPath: string,
    body: Buffer,
  ): number {
    const comp = url.searchParams.get('comp');
    if (req.method === 'PUT') {
      checkSas(url, blobPath, 'w');
      let blob = blobs.get(blobPath);
      if (!blob) {
        blob = { data: undefined, contentType: undefined, blocks: new Map(), etag: '', lastModified: new Date() };
        touch(blob);
        blobs.set(blobPath, blob);
      }
      const md5 = createHash('md5').update(body).digest('base64');
      if (comp === 'block') {
        const id = url.searchParams.get('blockid');
        if (!id) throw new HttpError(400, 'blockid is required', 'InvalidQueryParameterValue');
        blob.blocks.set(id, body);
        res
          .writeHead(201, {
            ...blobHeaders(blob),
            'Content-MD5': md5,
            'x-ms-request-server-encrypted': 'true',
            'Content-Length': '0',
          })
          .end();
        return 201;
      }
      if (comp === 'blocklist') {
        const ids = [...body.toString('utf8').matchAll(/<(Latest|Uncommitted|Committed)>([^<]*)<\/\1>/g)].map(
          (m) => m[2] ?? '',
        );
        const parts: Buffer[] = [];
        for (const id of ids) {
          const block = blob.blocks.get(id);
          if (!block)
            throw new HttpError(400, `The specified block list is invalid (no block ${id}).`, 'InvalidBlockList');
          parts.push(block);
        }
        blob.data = Buffer.concat(parts);
        blob.blocks.clear();
        blob.contentType = header(req, 'x-ms-blob-content-type') ?? blob.contentType;
        touch(blob);
        res
          .writeHead(201, { ...blobHeaders(blob), 'x-ms-request-server-encrypted': 'true', 'Content-Length': '0' })
          .end();
        return 201;
      }
      if (comp) throw new HttpError(400, `comp=${comp} is not emulated`, 'UnsupportedQueryParameter');
      if (header(req, 'x-ms-blob-type') !== 'BlockBlob')
        throw new HttpError(400, 'x-ms-blob-type: BlockBlob is required', 'MissingRequiredHeader');
      blob.data = body;
      blob.blocks.clear();
      blob.contentType = header(req, 'x-ms-blob-content-type') ?? header(req, 'content-type');
      touch(blob);
      res
        .writeHead(201, {
          ...blobHeaders(blob),
          'Content-MD5': md5,
          'x-ms-request-server-encrypted': 'true',
          'Content-Length': '0',
        })
        .end();
      return 201;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      checkSas(url, blobPath, 'r');
      const blob = blobs.get(blobPath);
      if (!blob?.data) throw new HttpError(404, 'The specified blob does not exist.', 'BlobNotFound');
      const data = blob.data;
      const headers: Record<string, string> = {
        ...blobHeaders(blob),
        'Content-Type': blob.contentType ?? 'application/octet-stream',
        'Accept-Ranges': 'bytes',
        'x-ms-blob-type': 'BlockBlob',
        'x-ms-server-encrypted': 'true',
        'x-ms-creation-time': blob.lastModified.toUTCString(),
      };
      const range = /^bytes=(\d+)-(\d*)$/.exec(header(req, 'x-ms-range') ?? header(req, 'range') ?? '');
      if (range && req.method === 'GET') {
        const start = Number(range[1]);
        const end = Math.min(range[2] ? Number(range[2]) : data.length - 1, data.length - 1);
        if (start >= data.length || end < start) {
          res.writeHead(416, { 'Content-Range': `bytes */${data.length}`, 'x-ms-error-code': 'InvalidRange' }).end();
          return 416;
        }
        const slice = data.subarray(start, end + 1);
        res
          .writeHead(206, {
            ...headers,
            'Content-Length': String(slice.length),
            'Content-Range': `bytes ${start}-${end}/${data.length}`,
          })
          .end(slice);
        return 206;
      }
      res.writeHead(200, { ...headers, 'Content-Length': String(data.length) });
      res.end(req.method === 'GET' ? data : undefined);
      return 200;
    }
    throw new HttpError(405, `${req.method} is not emulated on blobs`, 'UnsupportedHttpVerb');
  }

  // ---- cache service ---------------------------------------------------------------------------

  function cacheService(method: string, body: Record<string, unknown>, claims: Claims): unknown {
    const key = str(body, 'key');
    const version = str(body, 'version');
    if (method === 'GetCacheEntryDownloadURL') {
      const restoreKeys = (field(body, 'restore_keys') as string[] | undefined) ?? [];
      const usable = cacheEntries.filter((e) => e.finalized && e.version === version && claims.read.includes(e.scope));
      const newest = (list: CacheEntry[]) =>
        list.reduce<CacheEntry | undefined>((a, e) => (!a || e.seq > a.seq ? e : a), undefined);
      // Readable scopes in order (the run's ref first): an exact or prefix hit in the run's own ref wins.
      for (const scope of claims.read) {
        const inScope = usable.filter((e) => e.scope === scope);
        for (const k of [key, ...restoreKeys]) {
          const hit = newest(inScope.filter((e) => e.key === k)) ?? newest(inScope.filter((e) => e.key.startsWith(k)));
          if (hit) return { ok: true, signed_download_url: signedUrl(hit.blob, 'r'), matched_key: hit.key };
        }
      }
      return { ok: false, signed_download_url: '', matched_key: '' };
    }
    if (method === 'CreateCacheEntry') {
      if (!key || !version) throw new TwirpError('invalid_argument', 'key and version are required');
      if (!claims.write)
        throw new TwirpError('permission_denied', 'cache write denied: the token has no writable cache scope');
      const scope = claims.write;
      if (cacheEntries.some((e) => e.key === key && e.version === version && e.scope === scope)) {
        throw new TwirpError('already_exists', `cache entry with the same key, version, and scope already exists`);
      }
      const id = nextCacheId++;
      const blob = `actions-cache/${id}-${createHash('sha256').update(`${scope}\n${key}\n${version}`).digest('hex').slice(0, 16)}`;
      cacheEntries.push({
        id,
        key,
        version,
        scope,
        blob,
        size: 0,
        finalized: false,
        seq: 0,
        createdAt: new Date(),
        runId: claims.run.runId,
        attempt: claims.run.attempt,
      });
      return { ok: true, signed_upload_url: signedUrl(blob, 'cw') };
    }
    if (method === 'FinalizeCacheEntryUpload') {
      const entry = cacheEntries.find(
        (e) => e.key === key && e.version === version && e.scope === claims.write && !e.finalized,
      );
      if (!entry) throw new TwirpError('not_found', `no cache entry being uploaded for key ${key}`);
      const size = Number(wrapped(body, 'size_bytes') ?? 0);
      const data = blobs.get(entry.blob)?.data;
      if (!data) return { ok: false, entry_id: '0', message: 'the archive was not uploaded' };
      if (data.length !== size)
        return { ok: false, entry_id: '0', message: `uploaded ${data.length} bytes, finalize says ${size}` };
      entry.finalized = true;
      entry.size = size;
      entry.seq = ++seq;
      entry.createdAt = new Date();
      return { ok: true, entry_id: String(entry.id) };
    }
    throw new TwirpError('not_found', `no method ${method} on ${CACHE_SERVICE}`);
  }

  // ---- artifact service ------------------------------------------------------------------------

  /**
   * The run must be the token's; the job must be the token's for an upload, and any job of the run
   * otherwise (the client names another attempt's artifact by that artifact's own job id, as
   * ListArtifacts returned it, when it downloads or deletes).
   */
  function checkIds(body: Record<string, unknown>, claims: Claims, ownJob: boolean): void {
    const job = jobs.get(str(body, 'workflow_job_run_backend_id'));
    if (
      str(body, 'workflow_run_backend_id') !== claims.run.runBackendId ||
      !job ||
      job.runBackendId !== claims.run.runBackendId ||
      (ownJob && job.jobBackendId !== claims.run.jobBackendId)
    ) {
      throw new TwirpError('permission_denied', "the backend ids are not the token's");
    }
  }

  function monolith(a: Artifact) {
    return {
      workflow_run_backend_id: a.runBackendId,
      workflow_job_run_backend_id: a.jobBackendId,
      database_id: String(a.id),
      name: a.name,
      size: String(a.size),
      created_at: a.createdAt.toISOString(),
      ...(a.digest ? { digest: a.digest } : {}),
    };
  }

  function artifactService(method: string, body: Record<string, unknown>, claims: Claims): unknown {
    checkIds(body, claims, method === 'CreateArtifact' || method === 'FinalizeArtifact');
    const name = str(body, 'name');
    const inRun = artifactList.filter((a) => a.runBackendId === claims.run.runBackendId && !a.expired);
    if (method === 'CreateArtifact') {
      if (!name) throw new TwirpError('invalid_argument', 'name is required');
      if (inRun.some((a) => a.finalized && a.name === name))
        throw new TwirpError('already_exists', 'an artifact with this name already exists on the workflow run');
      const stale = artifactList.findIndex(
        (a) => !a.finalized && a.runBackendId === claims.run.runBackendId && a.name === name,
      );
      if (stale >= 0) artifactList.splice(stale, 1);
      const expires = str(body, 'expires_at');
      const blob = `actions-results/${claims.run.runBackendId}/${claims.run.jobBackendId}/${encodeURIComponent(name)}.zip`;
      artifactList.push({
        id: 0,
        name,
        runId: claims.run.runId,
        attempt: claims.run.attempt,
        runBackendId: claims.run.runBackendId,
        jobBackendId: claims.run.jobBackendId,
        blob,
        size: 0,
        digest: undefined,
        mimeType: wrapped(body, 'mime_type'),
        finalized: false,
        createdAt: new Date(),
        expiresAt: expires ? new Date(expires) : undefined,
        expired: false,
      });
      return { ok: true, signed_upload_url: signedUrl(blob, 'cw') };
    }
    if (method === 'FinalizeArtifact') {
      const a = artifactList.find((x) => !x.finalized && x.runBackendId === claims.run.runBackendId && x.name === name);
      if (!a) throw new TwirpError('not_found', `no artifact ${name} being uploaded in this run`);
      const data = blobs.get(a.blob)?.data;
      if (!data) throw new TwirpError('failed_precondition', 'the artifact content was not uploaded');
      const size = Number(wrapped(body, 'size') ?? 0);
      if (size !== data.length)
        throw new TwirpError('invalid_argument', `uploaded ${data.length} bytes, finalize says ${size}`);
      const hash = wrapped(body, 'hash');
      const actual = `sha256:${createHash('sha256').update(data).digest('hex')}`;
      if (hash && hash !== actual)
        throw new TwirpError('invalid_argument', `hash ${hash} does not match the upload (${actual})`);
      a.finalized = true;
      a.size = size;
      a.digest = actual;
      a.id = nextArtifactId++;
      a.createdAt = new Date();
      return { ok: true, artifact_id: String(a.id) };
    }
    if (method === 'ListArtifacts') {
      const nameFilter = wrapped(body, 'name_filter');
      const idFilter = wrapped(body, 'id_filter');
      const list = inRun.filter(
        (a) =>
          a.finalized &&
          (nameFilter === undefined || a.name === nameFilter) &&
          (idFilter === undefined || String(a.id) === idFilter),
      );
      return { artifacts: list.map(monolith) };
    }
    if (method === 'GetSignedArtifactURL') {
      const a = inRun.find((x) => x.finalized && x.name === name);
      if (!a) throw new TwirpError('not_found', `no artifact ${name} in this run`);
      return { signed_url: signedUrl(a.blob, 'r') };
    }
    if (method === 'DeleteArtifact') {
      const i = artifactList.findIndex(
        (x) => x.finalized && x.runBackendId === claims.run.runBackendId && x.name === name,
      );
      const a = artifactList[i];
      if (!a) throw new TwirpError('not_found', `no artifact ${name} in this run`);
      artifactList.splice(i, 1);
      blobs.delete(a.blob);
      return { ok: true, artifact_id: String(a.id) };
    }
    throw new TwirpError('not_found', `no method ${method} on ${ARTIFACT_SERVICE}`);
  }

  // ---- GitHub REST -----------------------------------------------------------------------------

  function restArtifact(a: Artifact) {
    const api = `${base}/repos/${repository}/actions/artifacts/${a.id}`;
    const run = [...jobs.values()].find((j) => j.runId === a.runId);
    return {
      id: a.id,
      node_id: b64url(`Artifact${a.id}`),
      name: a.name,
      size_in_bytes: a.size,
      url: api,
      archive_download_url: `${api}/zip`,
      expired: a.expired,
      digest: a.digest ?? null,
      created_at: a.createdAt.toISOString(),
      updated_at: a.createdAt.toISOString(),
      expires_at: a.expiresAt?.toISOString() ?? null,
      workflow_run: {
        id: a.runId,
        repository_id: 1,
        head_repository_id: 1,
        head_branch: (run?.ref ?? DEFAULT_BRANCH).replace(/^refs\/heads\//, ''),
        head_sha: '0'.repeat(40),
      },
    };
  }

  function page(list: Artifact[], url: URL) {
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30) || 30);
    const pageNo = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const newestFirst = [...list].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
    return {
      total_count: newestFirst.length,
      artifacts: newestFirst.slice((pageNo - 1) * perPage, pageNo * perPage).map(restArtifact),
    };
  }

  /** Passes a request on to `target` and its answer back (the promise settles with the status). */
  function forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    body: Buffer,
    target: string,
  ): Promise<number> {
    const to = new URL(`${url.pathname}${url.search}`, target);
    const headers = { ...req.headers, host: to.host };
    return new Promise((resolve) => {
      const out = http.request(to, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => resolve(answer.statusCode ?? 502));
      });
      out.on('error', (error) => resolve(json(res, 502, { message: `restFallback ${target}: ${error.message}` })));
      out.end(body);
    });
  }

  function handleRest(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    body: Buffer,
  ): number | Promise<number> {
    const auth = header(req, 'authorization') ?? '';
    if (auth !== `token ${githubToken}` && auth !== `Bearer ${githubToken}`) {
      return json(res, 401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      });
    }
    const prefix = `/repos/${repository}/actions/`;
    // The emulator answers the artifact endpoints; the rest of the API (the Actions settings among it) is the fallback's.
    const artifacts =
      url.pathname.startsWith(prefix) && /^(artifacts|runs)(\/|$)/.test(url.pathname.slice(prefix.length));
    if (!artifacts && options.restFallback) return forward(req, res, url, body, options.restFallback);
    if (req.method !== 'GET' || !url.pathname.startsWith(prefix))
      return json(res, 404, { message: 'Not Found', status: '404' });
    const rest = url.pathname.slice(prefix.length).split('/');
    const finalized = artifactList.filter((a) => a.finalized);
    const nameFilter = url.searchParams.get('name');
    const named = (list: Artifact[]) => (nameFilter ? list.filter((a) => a.name === nameFilter) : list);
    if (rest.length === 1 && rest[0] === 'artifacts') return json(res, 200, page(named(finalized), url));
    if (rest.length === 3 && rest[0] === 'runs' && rest[2] === 'artifacts') {
      return json(res, 200, page(named(finalized.filter((a) => String(a.runId) === rest[1])), url));
    }
    if (rest[0] === 'artifacts' && (rest.length === 2 || rest.length === 3)) {
      const a = finalized.find((x) => String(x.id) === rest[1]);
      if (!a) return json(res, 404, { message: 'Not Found', status: '404' });
      if (rest.length === 2) return json(res, 200, restArtifact(a));
      if (rest[2] !== 'zip')
        return json(res, 422, { message: `archive_format ${rest[2]} is not supported`, status: '422' });
      if (a.expired) return json(res, 410, { message: 'Artifact has expired', status: '410' });
      res.writeHead(302, { Location: signedUrl(a.blob, 'r'), 'Content-Length': '0' }).end();
      return 302;
    }
    return json(res, 404, { message: 'Not Found', status: '404' });
  }

  // ---- server ----------------------------------------------------------------------------------

  function header(req: http.IncomingMessage, name: string): string | undefined {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  }

  function json(res: http.ServerResponse, status: number, body: unknown): number {
    const text = JSON.stringify(body);
    res
      .writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) })
      .end(text);
    return status;
  }

  /** container/blob when the request is for blob storage: by the Azure host (absolute-form through the proxy, or tunnelled with its Host header), or Azurite-style by path. */
  function blobPathOf(req: http.IncomingMessage, url: URL): string | undefined {
    if (url.hostname === BLOB_HOST || (header(req, 'host') ?? '').split(':')[0] === BLOB_HOST)
      return decodeURIComponent(url.pathname.slice(1));
    if (url.pathname.startsWith(`/${ACCOUNT}/`)) return decodeURIComponent(url.pathname.slice(`/${ACCOUNT}/`.length));
    return undefined;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const blobPath = blobPathOf(req, url);
    const twirp = /^\/twirp\/([\w.]+)\/(\w+)$/.exec(url.pathname);
    try {
      if (twirp) {
        if (req.method !== 'POST') throw new TwirpError('invalid_argument', 'Twirp takes POST');
        if (!(header(req, 'content-type') ?? '').startsWith('application/json'))
          throw new TwirpError('invalid_argument', 'only the JSON encoding is emulated');
        const claims = verifyRuntimeToken(header(req, 'authorization'));
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
        } catch {
          throw new TwirpError('invalid_argument', 'the body is not JSON');
        }
        const [service, method] = [twirp[1] ?? '', twirp[2] ?? ''];
        if (service === CACHE_SERVICE) return json(res, 200, cacheService(method, parsed, claims));
        if (service === ARTIFACT_SERVICE) return json(res, 200, artifactService(method, parsed, claims));
        throw new TwirpError('not_found', `no service ${service}`);
      }
      if (blobPath !== undefined) return handleBlob(req, res, url, blobPath, body);
      if (url.pathname.startsWith('/repos/') || url.pathname.startsWith('/repositories/'))
        return await handleRest(req, res, url, body);
      return json(res, 404, { message: 'Not Found' });
    } catch (error) {
      if (error instanceof TwirpError) return json(res, error.status, { code: error.code, msg: error.message });
      if (error instanceof HttpError) {
        const xml = `<?xml version="1.0" encoding="utf-8"?><Error><Code>${error.azureCode ?? 'Error'}</Code><Message>${error.message}</Message></Error>`;
        res
          .writeHead(error.status, {
            'Content-Type': 'application/xml',
            'x-ms-error-code': error.azureCode ?? 'Error',
            'Content-Length': String(Buffer.byteLength(xml)),
          })
          .end(xml);
        return error.status;
      }
      return json(res, 500, { code: 'internal', msg: (error as Error).message });
    }
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const blobPath = blobPathOf(req, url);
    // Recorded with blob paths as /<account>/<container>/<blob> whichever way they were addressed.
    const record = (status: number) =>
      calls.push({
        method: req.method ?? '',
        path: blobPath === undefined ? url.pathname : `/${ACCOUNT}/${blobPath}`,
        query: url.search.slice(1),
        status,
      });
    handle(req, res, url).then(record, (error: unknown) => {
      record(500);
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  // The HTTP proxy's CONNECT (@actions/http-client tunnels even plain-http targets): only to the blob host, into this server.
  const tunnels = new Set<net.Socket>();
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    if ((req.url ?? '').split(':')[0] !== BLOB_HOST) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      tunnels.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => tunnels.delete(s));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    repository,
    githubToken,
    workspace,
    runnerTemp,
    env(run) {
      const ref = run.ref ?? DEFAULT_BRANCH;
      const runBackendId = backendId(`run:${run.runId}`);
      const jobBackendId = backendId(`job:${run.runId}:${run.attempt}`);
      jobs.set(jobBackendId, { runId: run.runId, attempt: run.attempt, ref, runBackendId, jobBackendId });
      return {
        ACTIONS_RUNTIME_TOKEN: issueRuntimeToken({
          runId: run.runId,
          attempt: run.attempt,
          ref,
          runBackendId,
          jobBackendId,
        }),
        ACTIONS_RESULTS_URL: `${base}/`,
        ACTIONS_CACHE_SERVICE_V2: 'True',
        ACTIONS_CACHE_URL: `${base}/`,
        GITHUB_ACTIONS: 'true',
        // github.com: both clients treat any other host as GHES (cache falls back to v1, artifacts refuse).
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_API_URL: base,
        GITHUB_REPOSITORY: repository,
        GITHUB_REPOSITORY_OWNER: repository.split('/')[0] ?? '',
        GITHUB_REF: ref,
        GITHUB_REF_NAME: ref.replace(/^refs\/(heads|tags)\//, ''),
        GITHUB_RUN_ID: String(run.runId),
        GITHUB_RUN_ATTEMPT: String(run.attempt),
        GITHUB_RUN_NUMBER: String(run.runId),
        GITHUB_WORKFLOW: 'agent-loop',
        GITHUB_WORKFLOW_REF: `${repository}/.github/workflows/agent-loop.yml@${ref}`,
        GITHUB_JOB: 'loop',
        GITHUB_TOKEN: githubToken,
        GITHUB_WORKSPACE: workspace,
        RUNNER_TEMP: runnerTemp,
        ...(azureStyle ? { HTTP_PROXY: base, http_proxy: base } : {}),
      };
    },
    evictCache(keyPrefix) {
      const gone = cacheEntries.filter((e) => e.finalized && (keyPrefix === undefined || e.key.startsWith(keyPrefix)));
      for (const e of gone) {
        cacheEntries.splice(cacheEntries.indexOf(e), 1);
        blobs.delete(e.blob);
      }
      return gone.map((e) => e.key);
    },
    corruptCache(key, mutate) {
      const entry = cacheEntries.find((e) => e.finalized && e.key === key);
      const blob = entry ? blobs.get(entry.blob) : undefined;
      if (!entry || !blob?.data) throw new Error(`no finalized cache entry ${key}`);
      blob.data = mutate(blob.data);
      entry.size = blob.data.length;
      touch(blob);
    },
    cacheArchive(key) {
      const entry = cacheEntries.find((e) => e.finalized && e.key === key);
      const data = entry ? blobs.get(entry.blob)?.data : undefined;
      if (!data) throw new Error(`no finalized cache entry ${key}`);
      return Buffer.from(data);
    },
    artifactZip(id) {
      const a = artifactList.find((x) => x.finalized && x.id === id);
      const data = a ? blobs.get(a.blob)?.data : undefined;
      if (!data) throw new Error(`no artifact ${id}`);
      return Buffer.from(data);
    },
    expireArtifact(id) {
      const a = artifactList.find((x) => x.finalized && x.id === id);
      if (!a) throw new Error(`no artifact ${id}`);
      a.expired = true;
    },
    caches() {
      return cacheEntries
        .filter((e) => e.finalized)
        .sort((a, b) => a.seq - b.seq)
        .map((e) => ({
          id: e.id,
          key: e.key,
          version: e.version,
          scope: e.scope,
          size: e.size,
          createdAt: e.createdAt,
          runId: e.runId,
          attempt: e.attempt,
        }));
    },
    artifacts() {
      return artifactList
        .filter((a) => a.finalized)
        .sort((a, b) => a.id - b.id)
        .map((a) => ({
          id: a.id,
          name: a.name,
          runId: a.runId,
          attempt: a.attempt,
          size: a.size,
          digest: a.digest,
          createdAt: a.createdAt,
          expiresAt: a.expiresAt,
          expired: a.expired,
        }));
    },
    calls: () => [...calls],
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of tunnels) s.destroy();
      });
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}
