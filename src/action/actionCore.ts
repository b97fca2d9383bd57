/** The part of @actions/core the action's main step uses (tests hand a fake). */
export interface ActionCore {
  setSecret(secret: string): void;
  setOutput(name: string, value: string): void;
  setFailed(message: string): void;
  error(message: string): void;
  warning(message: string): void;
  /** A notice annotation: worth knowing, nothing to fix. */
  notice(message: string): void;
  info(message: string): void;
  /** Hands a value to the post step (GITHUB_STATE). */
  saveState(name: string, value: string): void;
  writeSummary(markdown: string): Promise<void>;
}
