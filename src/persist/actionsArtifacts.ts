/**
 * The real `ArtifactBackend`: workflow artifacts through @actions/artifact and the REST API, its
 * writing side (upload) and its reading side (the newest artifact of a name, its download).
 */
import { DefaultArtifactClient } from '@actions/artifact';
import { getOctokit } from '@actions/github';
import { systemClock } from '../util/clock.js';
import { type ArtifactBackend, errorText } from './stateBackends.js';
import { type StorageRetryDeps, retryingArtifacts } from './storageRetry.js';

export interface ActionsArtifactsOptions {
  /** A token with actions:read on the repository (the workflow's GITHUB_TOKEN). */
  token: string;
  /** owner/name (GITHUB_REPOSITORY). */
  repository: string;
  /** The REST API root; GITHUB_API_URL when not given. */
  apiUrl?: string;
  /** The sleep (and log) of the retries under the actions_storage row; the system clock by default. */
  retry?: StorageRetryDeps;
}

/**
 * @actions/artifact: uploads through the results service of this run (replacing the artifact an
 * earlier attempt of the run uploaded under the same name); the artifacts of a name, newest first,
 * through `GET /repos/{owner}/{repo}/actions/artifacts?name=` (newest first, every run of the
 * repository); its download through the client's `findBy` (REST `…/artifacts/{id}/zip`).
 * Note: the client's `findBy` calls use @actions/github's API root as it was when that module was
 * first loaded (GITHUB_API_URL at process start, which is how the runner sets it).
 * Each call is retried under the actions_storage row (storageRetry.ts) on top of the client's own
 * retries; the listing's Octokit has no retry plugin, so the row alone decides for it.
 */
export function actionsArtifacts(options: ActionsArtifactsOptions): ArtifactBackend {
  const client = new DefaultArtifactClient();
  const [owner = '', repo = ''] = options.repository.split('/');
  const backend: ArtifactBackend = {
    async upload(name, files, rootDir, retentionDays) {
      try {
        return { id: (await client.uploadArtifact(name, files, rootDir, { retentionDays })).id };
      } catch (error) {
        // A re-run attempt finds the earlier attempt's artifact of the same name on the run (409):
        // replace it (upload-artifact's `overwrite`), once. The race check has already read it.
        if (!/\(409\)/.test(errorText(error))) throw error;
        await client.deleteArtifact(name);
        return { id: (await client.uploadArtifact(name, files, rootDir, { retentionDays })).id };
      }
    },
    async list(name) {
      const octokit = getOctokit(options.token, {
        baseUrl: options.apiUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com',
      });
      const { data } = await octokit.rest.actions.listArtifactsForRepo({ owner, repo, name, per_page: 100 });
      return data.artifacts
        .filter((a) => a.name === name && !a.expired && a.workflow_run?.id !== undefined)
        .sort((a, b) => Date.parse(b.created_at ?? '') - Date.parse(a.created_at ?? '') || b.id - a.id)
        .map((a) => ({
          id: a.id,
          name: a.name,
          runId: a.workflow_run?.id ?? 0,
          ...(a.created_at ? { createdAt: new Date(a.created_at) } : {}),
          ...(a.digest ? { digest: a.digest } : {}),
        }));
    },
    async download(artifact, dir) {
      const r = await client.downloadArtifact(artifact.id, {
        path: dir,
        ...(artifact.digest ? { expectedHash: artifact.digest } : {}),
        findBy: { token: options.token, workflowRunId: artifact.runId, repositoryOwner: owner, repositoryName: repo },
      });
      if (r.digestMismatch)
        throw new Error(`the download does not match the artifact's digest ${artifact.digest ?? ''}`);
    },
  };
  return retryingArtifacts(backend, options.retry ?? { sleep: systemClock.sleep });
}
