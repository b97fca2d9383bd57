/**
 * What an agent's failure is, as the retry policy reads it (policy.ts) and every adapter reports it
 * (src/agents/: classify*.ts). Here, below the agents, so that the policy names no adapter.
 */

/** What an agent's failure means for the loop: try again later, or no point retrying as is. */
export type FailureClass = 'transient' | 'permanent';

export interface AgentFailure {
  class: FailureClass;
  /** Stable machine-readable reason: timeout, killed, crashed, exit_code, not_found, rate_limit, auth, ... */
  reason: string;
  /** One line a person can act on. */
  message: string;
  /** When the failure says how long to wait (rate limits). */
  retryAfterMs?: number;
}
