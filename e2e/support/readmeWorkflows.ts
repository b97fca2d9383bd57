/**
 * The whole workflows the documentation shows (README.md, docs/**), found by what they hold rather
 * than by heading or line (issue 40: the README is being restructured): the step workflow (a
 * `workflow_dispatch` workflow with a step using the action) and the reusable workflow's caller (a
 * job calling the reusable workflow). The action's and the workflow's names are the published ones
 * (scripts/publish-ref.mjs), read from the reusable workflow.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { callsWorkflow, usesAction } from '../../scripts/workflow-lint/calls.mjs';
import { projectTargets, ROOT } from '../../scripts/workflow-lint/lint.mjs';
import { markdownFiles, unitsOf } from '../../scripts/workflow-lint/sources.mjs';

export interface ShownStep {
  id?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
export interface ShownJob {
  uses?: string;
  with?: Record<string, unknown>;
  secrets?: Record<string, unknown> | 'inherit';
  permissions?: unknown;
  steps?: ShownStep[];
}
export interface ShownWorkflow {
  /** FILE:LINE of the block's first line. */
  where: string;
  text: string;
  on: Record<string, { inputs?: Record<string, { type?: string; default?: unknown }> } | null>;
  permissions?: unknown;
  jobs: Record<string, ShownJob>;
}

const targets = projectTargets();

/** Every whole workflow shown in README.md and the Markdown files under docs/. */
export function shownWorkflows(root = ROOT): ShownWorkflow[] {
  return markdownFiles(root).flatMap((file) =>
    unitsOf(file, readFileSync(path.join(root, file), 'utf8')).map((unit) => ({
      where: unit.name,
      text: unit.text,
      ...(YAML.parse(unit.text) as Omit<ShownWorkflow, 'where' | 'text'>),
    })),
  );
}

const steps = (w: ShownWorkflow) => Object.values(w.jobs ?? {}).flatMap((j) => j.steps ?? []);
export const isActionStep = (s: ShownStep) => typeof s.uses === 'string' && usesAction(s.uses, targets);
export const callsReusable = (j: ShownJob) => typeof j.uses === 'string' && callsWorkflow(j.uses, targets);

function theOne(found: ShownWorkflow[], what: string): ShownWorkflow {
  if (found.length !== 1)
    throw new Error(
      `${what}: expected one such workflow in README.md, found ${found.map((w) => w.where).join(', ') || 'none'}`,
    );
  return found[0]!;
}

/** The README's step workflow: run by hand too (workflow_dispatch), with a step using the action. */
export const readmeStepWorkflow = (root = ROOT) =>
  theOne(
    shownWorkflows(root).filter(
      (w) => w.where.startsWith('README.md:') && 'workflow_dispatch' in (w.on ?? {}) && steps(w).some(isActionStep),
    ),
    "the README's step workflow (workflow_dispatch and a step using the action)",
  );

/** The README's caller of the reusable workflow. */
export const readmeCallerWorkflow = (root = ROOT) =>
  theOne(
    shownWorkflows(root).filter(
      (w) => w.where.startsWith('README.md:') && Object.values(w.jobs ?? {}).some(callsReusable),
    ),
    "the README's caller of the reusable workflow",
  );

/** The step of a workflow that uses the action. */
export const actionStepOf = (w: ShownWorkflow): ShownStep => steps(w).find(isActionStep)!;
