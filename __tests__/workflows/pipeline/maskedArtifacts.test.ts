/**
 * Issue 41: one masking boundary. The planning agent's artifacts are masked where they are read
 * (checkBarrier), so the planning prompt that quotes them needs no mask of its own, and the phase
 * files become issues without a secret, whichever sink writes them (the beads file has no mask of
 * its own). Here no sink masks: the log, the checkpoint store and the issue sink keep what they get.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Agent, AgentRunRequest } from '../../../src/agents/types.js';
import { FileCheckpointStore } from '../../../src/checkpoint/fileStore.js';
import { createLogger } from '../../../src/report/logger.js';
import { createRedactor } from '../../../src/secrets/redact.js';
import type { PhaseIssueRequest } from '../../../src/workflows/pipeline/beadsCreate.js';
import { runPipeline } from '../../../src/workflows/pipeline/run.js';
import { ManualClock } from '../../../fakes/index.js';

const SECRET = 'sekrit-planning-key-77';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pipeline-masked-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Writes each phase's artifact where its prompt says, each with the secret in it. */
const leakingAgent = (prompts: string[]): Agent => ({
  displayName: 'scripted',
  async run(req: AgentRunRequest) {
    prompts.push(req.prompt);
    const artifact = /\n(\/\S*\/pipeline\/\S*)\n/.exec(req.prompt)?.[1] as string;
    const text = (title: string) =>
      `# ${title}\n\nThe service key is ${SECRET}.\n${'A line long enough to pass the barrier. '.repeat(8)}\n`;
    if (req.prompt.includes('You are the research agent')) await fs.writeFile(artifact, text('Research'));
    else if (req.prompt.includes('You are the decomposition agent'))
      await fs.writeFile(artifact, JSON.stringify({ goal: 'g', components: [{ name: 'a', description: SECRET }] }));
    else if (req.prompt.includes('You are the planning agent')) await fs.writeFile(artifact, text('Plan'));
    else {
      await fs.mkdir(artifact, { recursive: true });
      await fs.writeFile(path.join(artifact, '01-first.md'), text('First'));
    }
    return { ok: true, exitCode: 0, signal: null, durationMs: 1, outputTail: '' };
  },
});

/** An issue sink that keeps what it is asked to write, as given (the beads file masks nothing). */
class KeepingSink {
  readonly where = 'memory';
  readonly requests: PhaseIssueRequest[] = [];
  async createPhaseIssues(request: PhaseIssueRequest) {
    this.requests.push(request);
    const keys = request.phases.map((p) => `${request.prefix}-${p.number}`);
    return { planned: keys, created: keys, alreadyPresent: [] };
  }
}

describe('the planning pipeline masks its artifacts where it reads them (issue 41)', () => {
  it('the prompts quoting them and the issues made of them hold no secret, with no mask of their own', async () => {
    const prompts: string[] = [];
    const sink = new KeepingSink();
    const lines: string[] = [];
    const clock = new ManualClock();
    const stateDir = path.join(dir, 'state');
    const store = new FileCheckpointStore(stateDir, { clock });
    // Masked where the data enters (the artifacts, as app/plan.ts builds it); no sink masks.
    const redact = createRedactor([SECRET]);
    const logger = createLogger({ json: true, write: (s) => lines.push(s), clock, redact: (t) => t });
    const settings = { maxRetries: 1, agentTimeoutMs: 60_000, fresh: false };
    const code = await runPipeline({
      ...settings,
      goal: 'Build it',
      cwd: dir,
      stateDir,
      agent: leakingAgent(prompts),
      sink,
      store,
      logger,
      redact,
      clock,
      implement: async () => 0,
    });
    expect(code).toBe(0);
    // The decomposition and planning prompts quote the research, masked.
    expect(prompts.some((p) => p.includes('The service key is ***.'))).toBe(true);
    for (const prompt of prompts) expect(prompt).not.toContain(SECRET);
    expect(sink.requests[0]?.phases[0]?.body).toContain('The service key is ***.');
    expect(JSON.stringify(sink.requests)).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain(SECRET);
    const [cp] = (await store.list()).checkpoints;
    expect(JSON.stringify(cp)).not.toContain(SECRET);
  });
});
