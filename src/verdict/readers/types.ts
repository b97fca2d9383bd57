/**
 * A reader of one test runner's console output, fed line by line as the output streams (a large
 * suite's output is never held whole), asked at the end what it read. `finish` answers undefined
 * when the output was not this runner's.
 */
import type { SuiteRun } from '../results.js';

export interface RunnerReader {
  readonly name: string;
  feed(line: string): void;
  finish(exitCode: number | null): SuiteRun | undefined;
}

/** Lines as the reader sees them: colours and terminal escapes removed, line ends trimmed. */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;
export const plain = (line: string): string => line.replace(ANSI, '').replace(/\r$/, '').trimEnd();

/** The suites enclosing a line of an indented listing (describe blocks, subtests), by indentation. */
export class Nesting {
  private stack: Array<{ indent: number; name: string }> = [];
  /** A suite's title at `indent`: it closes the suites at the same or a deeper indentation. */
  open(indent: number, name: string): void {
    this.close(indent);
    this.stack.push({ indent, name });
  }
  /** The names from the outermost suite down to `name`, a test at `indent`. */
  path(indent: number, name: string): string[] {
    this.close(indent);
    return [...this.stack.map((s) => s.name), name];
  }
  reset(): void {
    this.stack = [];
  }
  private close(indent: number): void {
    this.stack = this.stack.filter((s) => s.indent < indent);
  }
}
