/**
 * The planning pipeline's phase issues on GitHub (src/workflows/pipeline/githubSink.ts): issues opened
 * carrying the source's label, and found again by the hidden marker in their body on a re-run.
 * GitHubIssueSource.createIssue and findByMarkers are these, through the source's requests.
 */
import { GitHubSourceError } from './errors.js';
import { isObject } from './json.js';
import { commentText, truncate } from './postedText.js';
import { PER_PAGE, nextLink, type GitHubRequests } from './requests.js';

/** Opens an issue carrying `label` (1 request); its number. */
export async function createLabelledIssue(
  api: GitHubRequests,
  label: string,
  redact: (text: string) => string,
  issue: { title: string; body: string },
): Promise<number> {
  const answer = await api.send(
    'POST /repos/{owner}/{repo}/issues',
    { title: truncate(redact(issue.title), 250), body: commentText(redact, issue.body), labels: [label] },
    `opening an issue "${issue.title.slice(0, 60)}"`,
  );
  const number = isObject(answer.data) ? answer.data.number : undefined;
  if (typeof number !== 'number')
    throw new GitHubSourceError(
      `Unexpected answer opening an issue in ${api.owner}/${api.repo}: no number`,
      'other',
      answer.status,
    );
  return number;
}

/**
 * The issues (open or closed) carrying `label` whose body contains each marker: at most `maxPages`
 * pages of 100, newest first (where a re-run's own issues are).
 */
export async function findIssuesByMarkers(
  api: GitHubRequests,
  label: string,
  maxPages: number,
  markers: readonly string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const q = new URLSearchParams({
    state: 'all',
    labels: label,
    sort: 'created',
    direction: 'desc',
    per_page: String(PER_PAGE),
  });
  let url: string | undefined =
    `/repos/${encodeURIComponent(api.owner)}/${encodeURIComponent(api.repo)}/issues?${q.toString()}`;
  for (let page = 0; url !== undefined && page < maxPages && found.size < markers.length; page++) {
    const answer = await api.send(`GET ${url}`, {}, `looking for issues an earlier run opened (${label})`);
    for (const raw of Array.isArray(answer.data) ? answer.data : []) {
      if (!isObject(raw) || typeof raw.number !== 'number' || typeof raw.body !== 'string' || raw.pull_request)
        continue;
      for (const marker of markers) if (!found.has(marker) && raw.body.includes(marker)) found.set(marker, raw.number);
    }
    url = nextLink(answer.headers.link);
  }
  return found;
}
