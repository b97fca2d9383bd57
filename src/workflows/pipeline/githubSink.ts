/**
 * beads_integration in the action: the phase issues as GitHub issues carrying the label, phase N+1
 * "Blocked by #N" (a line `GitHubIssueSource.ready()` honours while #N is open). GitHub assigns
 * the numbers, so each issue carries a hidden key marker, found again on a re-run: no duplicates.
 */
import type { GitHubIssueSource } from '../../issues/github/issueSource.js';
import {
  type PhaseIssueRequest,
  type PhaseIssueResult,
  type PhaseIssueSink,
  phaseIssueMarker,
  planPhaseIssueIds,
} from './beadsCreate.js';

export class GitHubPhaseIssueSink implements PhaseIssueSink {
  constructor(private readonly github: Pick<GitHubIssueSource, 'createIssue' | 'findByMarkers'>) {}

  async createPhaseIssues(request: PhaseIssueRequest): Promise<PhaseIssueResult & { ids: Record<string, string> }> {
    const keys = planPhaseIssueIds(request);
    await request.onPlanned?.([...keys]);
    const found = await this.github.findByMarkers(keys.map(phaseIssueMarker));
    const ids: Record<string, string> = {};
    const created: string[] = [];
    const alreadyPresent: string[] = [];
    let previous: number | undefined;
    for (const [i, phase] of request.phases.entries()) {
      const key = keys[i] as string;
      let number = found.get(phaseIssueMarker(key));
      if (number === undefined) {
        const blocked = previous !== undefined ? `\n\nBlocked by #${previous}` : '';
        number = await this.github.createIssue({
          title: phase.title,
          body: `${phase.body.trimEnd()}${blocked}\n\n${phaseIssueMarker(key)}\n`,
        });
        created.push(key);
      } else alreadyPresent.push(key);
      ids[key] = String(number);
      previous = number;
    }
    return { planned: [...keys], created, alreadyPresent, ids };
  }
}
