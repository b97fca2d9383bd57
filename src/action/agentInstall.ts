/**
 * install-agent: the pinned Claude Code or Codex CLI when the runner has none; only once the run
 * has work (a halt that stands installs nothing). The planning pipeline needs it from the start.
 */
import path from 'node:path';
import type { Options } from '../config/options.js';
import type { ActionCore } from './actionCore.js';
import { ensureAgent } from './installAgent.js';

export type AgentInstall = () => Promise<{ env: NodeJS.ProcessEnv } | { problem: string }>;

/** The install the run calls once it has work, or undefined when install-agent is off. */
export function agentInstall(input: {
  options: Options;
  env: NodeJS.ProcessEnv;
  /** The runner's temporary directory. */
  temp: string;
  core: ActionCore;
  redact: (text: string) => string;
}): AgentInstall | undefined {
  const { options, env, core, redact } = input;
  if (!options.installAgent) return undefined;
  return async () => {
    const installed = await ensureAgent({
      agent: options.agent,
      env,
      prefix: path.join(input.temp, 'agent-loop-clis'),
      log: (m) => core.info(redact(m)),
    });
    if (installed.kind === 'failed') return { problem: installed.message };
    if (installed.kind === 'installed') core.info(`agent-loop: installed ${installed.pkg}@${installed.version}.`);
    return { env: installed.kind === 'installed' ? installed.env : env };
  };
}
