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

/**
 * The longest component of a cycle branch's name, in bytes: git stores a branch as a file
 * (`refs/heads/agent-loop/<name>`, and `<name>.lock` while it writes it) whose name most file
 * systems bound to 255 bytes; a batch's name adds about 20 characters to its first issue's.
 */
export const BRANCH_COMPONENT_MAX_BYTES = 200;

/**
 * Why `name` cannot be a branch (git check-ref-format's rules for a branch name, plus the file-name
 * bound above), or undefined when it can. Pure.
 */
export function branchNameProblem(name: string): string | undefined {
  if (name === '' || name === '@') return 'it is empty or "@"';
  if (name.startsWith('-')) return 'it starts with "-"';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'it holds a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'it holds ".."';
  if (name.includes('@{')) return 'it holds "@{"';
  if (name.endsWith('/') || name.includes('//')) return 'it has an empty path component';
  if (name.endsWith('.')) return 'it ends with "."';
  for (const component of name.split('/')) {
    if (component.startsWith('.')) return `its component "${component.slice(0, 20)}" starts with "."`;
    if (component.endsWith('.lock')) return 'a component ends with ".lock"';
    if (Buffer.byteLength(component) > BRANCH_COMPONENT_MAX_BYTES)
      return `a component is ${Buffer.byteLength(component)} bytes long, over the ${BRANCH_COMPONENT_MAX_BYTES} a file name can take`;
  }
  return undefined;
}
