/** A run killed while its baseline ran on the base tip, detached: the next run puts the checkout back (src/safety/baselineCheckout.ts), on real git. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineCheckoutFile, restoreBaselineCheckout } from '../../src/safety/baselineCheckout.js';
import { GIT_ENV, gitIn } from '../git/repo.js';

describe('restoreBaselineCheckout', () => {
  let dir: string;
  let stateDir: string;
  let base: string;
  const git = gitIn(() => dir);
  beforeEach(async () => {
    dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-detached-')));
    stateDir = path.join(dir, '.git', 'agent-loop');
    git('init', '-q', '-b', 'main');
    await fs.writeFile(path.join(dir, 'a.txt'), 'a\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    base = git('rev-parse', 'HEAD');
    git('checkout', '-q', '-b', 'agent-loop/bd-1');
    await fs.writeFile(path.join(dir, 'a.txt'), 'wip\n');
    git('commit', '-q', '-am', 'wip: bd-1');
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  /** As a run killed during the baseline leaves it: the marker written, the base tip checked out detached. */
  const killedDuringBaseline = async () => {
    await fs.mkdir(path.dirname(baselineCheckoutFile(stateDir)), { recursive: true });
    await fs.writeFile(baselineCheckoutFile(stateDir), JSON.stringify({ back: 'agent-loop/bd-1', commit: base }));
    git('checkout', '-q', base);
  };

  it('puts the branch back and says so; the marker is gone', async () => {
    await killedDuringBaseline();
    const said = await restoreBaselineCheckout(stateDir, dir, GIT_ENV);
    expect(said).toBe(
      `A run killed while it ran the baseline on ${base.slice(0, 12)} left the checkout detached there: agent-loop/bd-1 is checked out again.`,
    );
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('agent-loop/bd-1');
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('wip\n');
    expect(existsSync(baselineCheckoutFile(stateDir))).toBe(false);
  });

  it('leaves a checkout someone moved since (or changed) as it is: the marker says nothing now', async () => {
    await killedDuringBaseline();
    await fs.writeFile(path.join(dir, 'a.txt'), 'a person edits\n');
    expect(await restoreBaselineCheckout(stateDir, dir, GIT_ENV)).toBeUndefined();
    expect(git('rev-parse', 'HEAD')).toBe(base);
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('a person edits\n');
    expect(existsSync(baselineCheckoutFile(stateDir))).toBe(false);

    await killedDuringBaseline().catch(() => undefined);
    git('checkout', '-q', '-f', 'main');
    expect(await restoreBaselineCheckout(stateDir, dir, GIT_ENV)).toBeUndefined();
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('main');
  });

  it('does nothing without a marker', async () => {
    git('checkout', '-q', base);
    expect(await restoreBaselineCheckout(stateDir, dir, GIT_ENV)).toBeUndefined();
    expect(git('rev-parse', 'HEAD')).toBe(base);
  });
});
