/**
 * Claims on GitHub issues (issue 14; the rules in src/issues/claims.ts): the IN_PROGRESS_LABEL and
 * one claim comment per run, found by its hidden marker, edited in place (PATCH) when renewed or
 * released. A lease is judged by GitHub's clock: it runs for its length (`leaseSeconds`) from the
 * comment's updated_at, and is compared with the `date` header of the answer that listed it. Every
 * runner shares that clock: a runner whose own clock is off never takes a live lease for an
 * expired one. The `expires` written in the comment is the writer's own estimate, for people.
 *
 * The claim comment is also the issue's progress comment (issue 15): what a maintainer reads on the
 * issue while it is worked (iterations and spend so far, a link to the workflow run), edited at
 * each renewal, and at the release edited to how the cycle ended (the pull request, escalated, no
 * change needed), marked released: it stays on the issue as the attempt's record. A later attempt
 * on the issue claims with a new comment (race safety: the oldest comment wins, and an old comment
 * revived would jump ahead of a newer live claim).
 *
 * Requests: claiming lists the claim comments (1), adds the label (1), posts or edits the run's own
 * (1) and lists them again (1); a run that loses the race deletes its comment (1 more), one that
 * takes over a dead run's expired claim deletes that one (1 each). Renewing is
 * 1 PATCH; releasing edits the comment to its last word (1; deletes it when there is nothing to tell)
 * and removes the label (1; GitHub's 404 when a person removed it already is fine). Listing reads
 * only comments updated in the last days (`since`), where every live claim is.
 */
import { IN_PROGRESS_LABEL } from '../types.js';
import {
  type Claim,
  type Claimant,
  type ClaimOutcome,
  type ClaimProgress,
  type FoundClaim,
  expiredClaims,
  heldByOther,
  isLive,
  ownClaim,
  winningClaim,
} from '../claims.js';
import { GitHubSourceError } from './errors.js';
import { isObject } from './json.js';
import { commentText } from './postedText.js';
import { PER_PAGE, type GitHubRequests } from './requests.js';
import { dollars } from '../../util/dollars.js';

/** The hidden first line of a claim comment: `<!-- agent-loop:claim {json} -->`. */
export const CLAIM_MARKER = '<!-- agent-loop:claim';
/** Claims updated longer ago than this are not read: no lease lasts that long. */
const CLAIMS_LOOKBACK_MS = 7 * 24 * 3_600_000;
const CLAIM_PAGES = 3;

/**
 * The comment's text: the marker with the claim as JSON, then what a maintainer reads (issue 15):
 * how the work goes (`progress`), the workflow run (`runUrl`: a link), and while the claim holds,
 * until when and how to free the issue.
 */
export function claimCommentBody(claim: Claim, progress?: ClaimProgress, runUrl?: string): string {
  const { run, checkpoint, expires, leaseSeconds } = claim;
  const json = JSON.stringify({
    run,
    checkpoint,
    expires,
    ...(leaseSeconds !== undefined ? { leaseSeconds } : {}),
    ...(claim.released ? { released: true } : {}),
    // The progress in the marker too, for a reduce to read back (the text below is for people).
    ...(progress?.iterations !== undefined ? { iterations: progress.iterations } : {}),
    ...(progress?.costUsd !== undefined ? { costUsd: progress.costUsd } : {}),
  });
  const runRef = runUrl ? `[\`${run}\`](${runUrl})` : `\`${run}\``;
  const facts = [
    progress?.iterations !== undefined
      ? `${claim.released ? 'Iterations' : 'Iterations so far'}: ${progress.iterations}`
      : '',
    progress?.costUsd !== undefined ? `${claim.released ? 'cost' : 'cost so far'}: ${dollars(progress.costUsd)}` : '',
    `run ${runRef}`,
  ].filter(Boolean);
  const lines = claim.released
    ? [
        `**${endedHeadline(progress)}**`,
        '',
        `${facts.join(' · ')}.`,
        '',
        ['agent-loop is no longer working on this issue.', progress ? endedNext(progress) : '']
          .filter(Boolean)
          .join(' '),
      ]
    : [
        `**agent-loop is working on this issue.**`,
        '',
        `${facts.join(' · ')} · checkpoint \`${checkpoint}\`.`,
        '',
        `This comment is updated at each iteration, and says how the work ended once it has. ` +
          `Other runs leave the issue alone until ${expires}. ` +
          `If that run is gone and you want the issue freed now, remove the \`${IN_PROGRESS_LABEL}\` label.`,
      ];
  return `${CLAIM_MARKER} ${json} -->\n${lines.join('\n')}`;
}

/** The released comment's headline: how the cycle ended. */
function endedHeadline(progress: ClaimProgress | undefined): string {
  const pr = progress?.pullRequest;
  switch (progress?.state) {
    case 'pull_request':
      // The same words whether it was opened now or found open (a re-landing after a crash finds its own).
      return pr ? `The work is in pull request [#${pr.number}](${pr.url})` : 'The work is in a pull request';
    case 'done':
      return 'Done: the work landed';
    case 'no_change':
      return 'No change needed';
    case 'held':
      return pr
        ? `Held for a person: the work is in draft pull request [#${pr.number}](${pr.url})`
        : 'Held for a person: the work is on its branch';
    case 'escalated':
      return 'Escalated: agent-loop could not finish this issue';
    case 'lost':
      return 'Work lost';
    case 'unfinished':
      return 'Unfinished: the job’s share of the run ran out';
    default:
      return 'agent-loop stopped working on this issue';
  }
}

/** What follows for the maintainer, after the headline. */
function endedNext(progress: ClaimProgress): string {
  switch (progress.state) {
    case 'pull_request':
      return 'Merging the pull request closes the issue.';
    case 'no_change':
      return 'Nothing needed changing: the comment below has the evidence.';
    case 'held':
      return 'agent-loop does not merge it nor close the issue: the comment below says why, and what to do.';
    case 'escalated':
      return 'See the comment below for why, and how to have it tried again.';
    case 'lost':
      return 'The run that did the work ended before it reached GitHub: the issue is worked again.';
    case 'unfinished':
      return 'Its work so far is pushed as a wip: commit on its branch; the next wave takes the issue up and continues from there.';
    default:
      return '';
  }
}

/** The claim a comment holds, or undefined when it is not a claim comment. */
export function parseClaimComment(body: string): Claim | undefined {
  if (!body.startsWith(CLAIM_MARKER)) return undefined;
  const end = body.indexOf('-->');
  if (end < 0) return undefined;
  try {
    const value: unknown = JSON.parse(body.slice(CLAIM_MARKER.length, end));
    if (!isObject(value)) return undefined;
    const { run, checkpoint, expires, released, leaseSeconds, iterations, costUsd } = value;
    if (typeof run !== 'string' || typeof checkpoint !== 'string' || typeof expires !== 'string') return undefined;
    const count = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
    return {
      run,
      checkpoint,
      expires,
      ...(typeof leaseSeconds === 'number' && leaseSeconds >= 0 ? { leaseSeconds } : {}),
      ...(released === true ? { released: true } : {}),
      ...(count(iterations) ? { iterations: Math.floor(iterations as number) } : {}),
      ...(count(costUsd) ? { costUsd: costUsd as number } : {}),
    };
  } catch {
    return undefined;
  }
}

/** An issue's claims and GitHub's time when it listed them (epoch ms). */
export interface ClaimListing {
  claims: FoundClaim[];
  now: number;
}

export class GitHubClaims {
  /** This run's claim comment per issue number. */
  private readonly comments = new Map<number, number>();

  constructor(
    private readonly api: GitHubRequests,
    /** The injected clock: when GitHub's answer carries no date. */
    private readonly now: () => number,
    /**
     * Whose comments can hold a claim: a bot (the workflow token's github-actions[bot], an app) or an
     * allowed author (a personal token's owner). Anyone may comment on a public repository: an
     * outsider's comment with the marker must not keep agent-loop off an issue.
     */
    private readonly trusted: (author: { type?: string; association?: string }) => boolean,
    /** The workflow run's page (linked from the comment) and the redaction of every comment posted. */
    private readonly shown: { runUrl?: string; redact?: (text: string) => string } = {},
  ) {}

  /** The issue's claim comments, oldest first, and GitHub's time. */
  async list(number: number): Promise<ClaimListing> {
    const claims: FoundClaim[] = [];
    const since = new Date(this.now() - CLAIMS_LOOKBACK_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
    let now = this.now();
    for (let page = 1; page <= CLAIM_PAGES; page++) {
      const answer = await this.api.send(
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { issue_number: number, since, per_page: PER_PAGE, page },
        `reading the claims on issue #${number}`,
      );
      const date = Date.parse(String(answer.headers.date ?? ''));
      if (Number.isFinite(date)) now = date;
      const items = Array.isArray(answer.data) ? answer.data : [];
      for (const c of items) {
        if (!isObject(c) || typeof c.id !== 'number' || typeof c.body !== 'string') continue;
        const user = isObject(c.user) ? c.user : {};
        const author = {
          ...(typeof user.type === 'string' ? { type: user.type } : {}),
          ...(typeof c.author_association === 'string' ? { association: c.author_association } : {}),
        };
        if (!this.trusted(author)) continue;
        const claim = parseClaimComment(c.body);
        if (claim)
          claims.push({ id: c.id, claim, ...(typeof c.updated_at === 'string' ? { updatedAt: c.updated_at } : {}) });
      }
      if (items.length < PER_PAGE) break;
    }
    return { claims, now };
  }

  /** The newest claim of `me` (its run and checkpoint) on the issue, released or not; undefined when there is none. */
  async ownNewest(number: number, me: Claimant): Promise<Claim | undefined> {
    const { claims } = await this.list(number);
    return claims.filter((c) => c.claim.run === me.run && c.claim.checkpoint === me.checkpoint).at(-1)?.claim;
  }

  /** The live claim of a run other than `run` that holds the issue, if any (1 request). */
  async heldBy(number: number, run: string): Promise<Claim | undefined> {
    const { claims, now } = await this.list(number);
    return heldByOther(claims, now, run);
  }

  /**
   * Claims an issue for `me` until `expires`: the label, then the claim comment (`me`'s own edited
   * when there is one; for a cycle `me`'s loop had in flight, `resuming`, its loop's live one), then
   * the claims read back: the oldest live claim wins. A loser releases its comment and leaves the
   * label to the winner.
   */
  async claim(
    number: number,
    me: Claimant,
    expires: string,
    resuming: boolean,
    progress?: ClaimProgress,
  ): Promise<ClaimOutcome> {
    const before = await this.list(number);
    const holder = heldByOther(before.claims, before.now, me.run);
    const mine = ownClaim(before.claims, before.now, me, resuming);
    if (holder && !(mine && resuming && holder.checkpoint === me.checkpoint)) return { won: false, holder };
    await this.api.send(
      'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
      { issue_number: number, labels: [IN_PROGRESS_LABEL] },
      `labelling issue #${number} ${IN_PROGRESS_LABEL}`,
    );
    const claim = this.leased(me, expires);
    const id = mine ? await this.edit(number, mine.id, claim, progress) : await this.post(number, claim, progress);
    this.comments.set(number, id);
    const after = await this.list(number);
    const winner = winningClaim(after.claims, after.now);
    if (winner && winner.id !== id) {
      await this.remove(number, id);
      this.comments.delete(number);
      return { won: false, holder: winner.claim };
    }
    // The dead runs' claims it took over go: one claim comment on the issue, this run's.
    const adopted = expiredClaims(before.claims, before.now, me.run);
    for (const dead of after.claims)
      if (dead.id !== id && !dead.claim.released && !isLive(dead, after.now)) await this.remove(number, dead.id);
    return { won: true, adopted };
  }

  /**
   * Moves the lease of this run's claim on (1 PATCH). Its comment gone (404): claimed again, and the
   * claim of the run that holds the issue now returned (undefined: this run's, or no comment known).
   */
  async renew(number: number, me: Claimant, expires: string, progress?: ClaimProgress): Promise<Claim | undefined> {
    const id = this.comments.get(number);
    if (id === undefined) return undefined;
    try {
      await this.edit(number, id, this.leased(me, expires), progress);
      return undefined;
    } catch (error) {
      if (!(error instanceof GitHubSourceError && error.status === 404)) throw error;
    }
    // The claim comment is gone: a run that took the issue over (this run's lease ran out) deleted it,
    // or a person did. Claimed again, race-safe: the issue stays this run's unless another run holds it.
    this.comments.delete(number);
    const outcome = await this.claim(number, me, expires, true, progress);
    return outcome.won ? undefined : outcome.holder;
  }

  /**
   * Ends this run's claim (or, when this run took none, its loop's from an earlier run, still
   * unreleased): with `progress`, its comment is edited to how the cycle ended, marked released (it
   * stays as the attempt's record); without, nothing was done under it and it is deleted. The label
   * goes. GitHub's 404 for any of them, gone already, is fine.
   */
  async release(number: number, me: Claimant, at: string, progress?: ClaimProgress): Promise<void> {
    const id = this.comments.get(number);
    // A cycle an earlier run of this loop claimed (its work landed now, from the outbox): its claim goes.
    const ids =
      id !== undefined
        ? [id]
        : (await this.list(number)).claims
            .filter((c) => c.claim.checkpoint === me.checkpoint && !c.claim.released)
            .map((c) => c.id);
    for (const each of ids)
      if (progress) await absentIsFine(() => this.edit(number, each, { ...me, expires: at, released: true }, progress));
      else await this.remove(number, each);
    this.comments.delete(number);
    await absentIsFine(() =>
      this.api.send(
        'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
        { issue_number: number, name: IN_PROGRESS_LABEL },
        `removing the ${IN_PROGRESS_LABEL} label from issue #${number}`,
      ),
    );
  }

  private async remove(number: number, id: number): Promise<void> {
    await absentIsFine(() =>
      this.api.send(
        'DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}',
        { comment_id: id },
        `deleting the claim comment on issue #${number}`,
      ),
    );
  }

  /** The claim until `expires`, with the lease's length: GitHub's stamp on the comment starts it. */
  private leased(me: Claimant, expires: string): Claim {
    const leaseSeconds = Math.max(0, Math.round((Date.parse(expires) - this.now()) / 1000));
    return { ...me, expires, ...(Number.isFinite(leaseSeconds) ? { leaseSeconds } : {}) };
  }

  /** The comment as posted: the marker and the text, redacted like every comment (issue 15: it tells the work's progress). */
  private body(claim: Claim, progress: ClaimProgress | undefined): string {
    return commentText(this.shown.redact ?? ((t) => t), claimCommentBody(claim, progress, this.shown.runUrl));
  }

  private async post(number: number, claim: Claim, progress?: ClaimProgress): Promise<number> {
    const answer = await this.api.send(
      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
      { issue_number: number, body: this.body(claim, progress) },
      `claiming issue #${number}`,
    );
    const id = isObject(answer.data) ? answer.data.id : undefined;
    if (typeof id !== 'number')
      throw new GitHubSourceError(`Unexpected answer claiming issue #${number}: no comment id`, 'other', answer.status);
    return id;
  }

  private async edit(number: number, id: number, claim: Claim, progress?: ClaimProgress): Promise<number> {
    await this.api.send(
      'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
      { comment_id: id, body: this.body(claim, progress) },
      claim.released ? `releasing the claim on issue #${number}` : `renewing the claim on issue #${number}`,
    );
    return id;
  }
}

/** A DELETE whose target is gone already (404) has done its work. */
async function absentIsFine(request: () => Promise<unknown>): Promise<void> {
  try {
    await request();
  } catch (error) {
    if (!(error instanceof GitHubSourceError && error.status === 404)) throw error;
  }
}
