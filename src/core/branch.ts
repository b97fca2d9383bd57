/**
 * The branch a cycle works on, named after its issues, as git accepts it: agent-loop/<id>,
 * agent-loop/issue-<n> for a GitHub issue number, agent-loop/batch-<first>-and-<n>-more. Pure.
 */
export function cycleBranchName(issueIds: readonly string[]): string {
  const safe = (s: string) =>
    /^\d+$/.test(s) ? `issue-${s}` : s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'issue';
  const first = safe(issueIds[0] ?? 'issue');
  return issueIds.length > 1 ? `agent-loop/batch-${first}-and-${issueIds.length - 1}-more` : `agent-loop/${first}`;
}
