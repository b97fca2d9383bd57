/**
 * Claims on GitHub issues (issue 14; the rules in src/issues/claims.ts): the IN_PROGRESS_LABEL and
 * one claim comment per run, found by its hidden marker, edited in place (PATCH) when renewed or
 * released. A lease is judged by GitHub's clock: it runs for its length (`leaseSeconds`) from the
 * comment's updated_at, and is compared with the `date` header of the answer that listed it. Every
 * runner shares that clock: a runner whose own clock is off never takes a live lease for an
 * expired one. The `expires` written in the comment is the writer's own estimate, for people.
 *
 * Requests: claiming lists the claim comments (1), adds the label (1), posts or edits the run's own
 * (1) and lists them again (1); a run that loses the race deletes its comment (1 more), one that
 * takes over a dead run's expired claim deletes that one (1 each). Renewing is
 * 1 PATCH; releasing deletes the comment (1) and removes the label (1; GitHub's 404 when a person
 * removed it already is fine). Listing reads only comments updated in the last days (`since`),
 * where every live claim is.
 */
import { IN_PROGRESS_LABEL } from '../types.js';
import {
  type Claim,
  type Claimant,
  type ClaimOutcome,
  type FoundClaim,
  expiredClaims,
  heldByOther,
  isLive,
  ownClaim,
  winningClaim,
} from '../claims.js';
import { GitHubSourceError } from './errors.js';
import { isObject } from './json.js';
import { PER_PAGE, type GitHubRequests } from './requests.js';

/** The hidden first line of a claim comment: `<!-- agent-loop:claim {json} -->`. */
export const CLAIM_MARKER = '<!-- agent-loop:claim';
/** Claims updated longer ago than this are not read: no lease lasts that long. */
const CLAIMS_LOOKBACK_MS = 7 * 24 * 3_600_000;
const CLAIM_PAGES = 3;

/** The comment's text: the marker with the claim as JSON, then what a maintainer reads. */
export function claimCommentBody(claim: Claim): string {
  const { run, checkpoint, expires, leaseSeconds } = claim;
  const json = JSON.stringify({
    run,
    checkpoint,
    expires,
    ...(leaseSeconds !== undefined ? { leaseSeconds } : {}),
    ...(claim.released ? { released: true } : {}),
  });
  const text = claim.released
    ? `agent-loop (run \`${run}\`) is no longer working on this issue.`
    : `agent-loop is working on this issue (run \`${run}\`, checkpoint \`${checkpoint}\`). ` +
      `The claim is renewed at each iteration; other runs leave the issue alone until ${expires}. ` +
      `If that run is gone and you want the issue freed now, remove the \`${IN_PROGRESS_LABEL}\` label.`;
  return `${CLAIM_MARKER} ${json} -->\n${text}`;
}

/** The claim a comment holds, or undefined when it is not a claim comment. */
export function parseClaimComment(body: string): Claim | undefined {
  if (!body.startsWith(CLAIM_MARKER)) return undefined;
  const end = body.indexOf('-->');
  if (end < 0) return undefined;
  try {
    const value: unknown = JSON.parse(body.slice(CLAIM_MARKER.length, end));
    if (!isObject(value)) return undefined;
    const { run, checkpoint, expires, released, leaseSeconds } = value;
    if (typeof run !== 'string' || typeof checkpoint !== 'string' || typeof expires !== 'string') return undefined;
    return {
      run,
      checkpoint,
      expires,
      ...(typeof leaseSeconds === 'number' && leaseSeconds >= 0 ? { leaseSeconds } : {}),
      ...(released === true ? { released: true } : {}),
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
  async claim(number: number, me: Claimant, expires: string, resuming: boolean): Promise<ClaimOutcome> {
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
    const id = mine ? await this.edit(number, mine.id, claim) : await this.post(number, claim);
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
  async renew(number: number, me: Claimant, expires: string): Promise<Claim | undefined> {
    const id = this.comments.get(number);
    if (id === undefined) return undefined;
    try {
      await this.edit(number, id, this.leased(me, expires));
      return undefined;
    } catch (error) {
      if (!(error instanceof GitHubSourceError && error.status === 404)) throw error;
    }
    // The claim comment is gone: a run that took the issue over (this run's lease ran out) deleted it,
    // or a person did. Claimed again, race-safe: the issue stays this run's unless another run holds it.
    this.comments.delete(number);
    const outcome = await this.claim(number, me, expires, true);
    return outcome.won ? undefined : outcome.holder;
  }

  /**
   * Ends this run's claim (or, when this run took none, its loop's from an earlier run): its comment is deleted (the pull request or the escalation note speaks for
   * the issue from here), the label goes. GitHub's 404 for either, gone already, is fine.
   */
  async release(number: number, me: Claimant): Promise<void> {
    const id = this.comments.get(number);
    // A cycle an earlier run of this loop claimed (its work landed now, from the outbox): its claim goes.
    const ids =
      id !== undefined
        ? [id]
        : (await this.list(number)).claims.filter((c) => c.claim.checkpoint === me.checkpoint).map((c) => c.id);
    for (const each of ids) await this.remove(number, each);
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

  private async post(number: number, claim: Claim): Promise<number> {
    const answer = await this.api.send(
      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
      { issue_number: number, body: claimCommentBody(claim) },
      `claiming issue #${number}`,
    );
    const id = isObject(answer.data) ? answer.data.id : undefined;
    if (typeof id !== 'number')
      throw new GitHubSourceError(`Unexpected answer claiming issue #${number}: no comment id`, 'other', answer.status);
    return id;
  }

  private async edit(number: number, id: number, claim: Claim): Promise<number> {
    await this.api.send(
      'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
      { comment_id: id, body: claimCommentBody(claim) },
      `renewing the claim on issue #${number}`,
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
