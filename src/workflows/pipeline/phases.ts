/**
 * The phases of `agent-loop plan` before implementation (seed 001), as data: which artifact each
 * one leaves under `<state-dir>/pipeline/`, how small that artifact may be before the hard barrier
 * (seed 004, pattern 2) rejects it, which checkpoint state key records it, and the agent's prompt.
 * beads_integration has no agent: code turns the phase files into issues (see beadsCreate.ts).
 * Everything here is pure.
 */
import path from 'node:path';
import { z } from 'zod';
import type { PipelinePhase } from '../../checkpoint/types.js';
import { type AgentPhaseName, DEFAULT_TEMPLATES } from './prompts.js';
import { notAComponent } from './messages.js';

/** `<state-dir>/pipeline`: where every artifact of the pipeline lives. */
export const PIPELINE_DIR = 'pipeline';

/** The checkpoint state keys of seed 001 (REQ_018.4.3), one per phase before implementation. */
export type PipelineStateKey =
  'research_output' | 'decomposition_result' | 'planning_output' | 'phase_files' | 'beads_data';

/** How the barrier reads an artifact: markdown text, decomposition JSON, or a directory of phase files. */
export type ArtifactKind = 'markdown' | 'decomposition' | 'phase-files';

export type { AgentPhaseName } from './prompts.js';

/** A phase run by an agent invocation that must leave `artifact` behind. */
export interface AgentPhaseSpec {
  name: AgentPhaseName;
  runner: 'agent';
  /** Relative to `<state-dir>/pipeline`; ends with "/" for a directory. */
  artifact: string;
  kind: ArtifactKind;
  /** The artifact (each phase file, for phase_decomposition) must be at least this many bytes. */
  minBytes: number;
  stateKey: Exclude<PipelineStateKey, 'beads_data'>;
  /** The prompt, with `{{placeholder}}`s (see PLACEHOLDERS). */
  template: string;
}

/** A phase done by code, with no agent, no template and no artifact of its own. */
export interface CodePhaseSpec {
  name: 'beads_integration';
  runner: 'code';
  stateKey: 'beads_data';
}

export type PhaseSpec = AgentPhaseSpec | CodePhaseSpec;

/** The placeholders the default templates use; `renderTemplate` leaves any other `{{name}}` as it is. */
export const PLACEHOLDERS = ['goal', 'research', 'decomposition', 'plan', 'artifact', 'failure'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type TemplateValues = Partial<Record<Placeholder, string>>;

export { DEFAULT_TEMPLATES };

/** The five phases before implementation, in pipeline order. */
export const PRE_IMPLEMENTATION_PHASES: readonly PhaseSpec[] = [
  {
    name: 'research',
    runner: 'agent',
    artifact: 'research.md',
    kind: 'markdown',
    minBytes: 200,
    stateKey: 'research_output',
    template: DEFAULT_TEMPLATES.research,
  },
  // The schema does the real check; 40 bytes only rejects a stub like {} or {"components":[]}.
  {
    name: 'decomposition',
    runner: 'agent',
    artifact: 'decomposition.json',
    kind: 'decomposition',
    minBytes: 40,
    stateKey: 'decomposition_result',
    template: DEFAULT_TEMPLATES.decomposition,
  },
  {
    name: 'planning',
    runner: 'agent',
    artifact: 'plan.md',
    kind: 'markdown',
    minBytes: 200,
    stateKey: 'planning_output',
    template: DEFAULT_TEMPLATES.planning,
  },
  {
    name: 'phase_decomposition',
    runner: 'agent',
    artifact: 'phases/',
    kind: 'phase-files',
    minBytes: 100,
    stateKey: 'phase_files',
    template: DEFAULT_TEMPLATES.phase_decomposition,
  },
  { name: 'beads_integration', runner: 'code', stateKey: 'beads_data' },
];

/** The spec of one phase; undefined for implementation, which is not a planning phase. */
export function phaseSpec(
  name: PipelinePhase,
  phases: readonly PhaseSpec[] = PRE_IMPLEMENTATION_PHASES,
): PhaseSpec | undefined {
  return phases.find((p) => p.name === name);
}

export interface PhaseOverrides {
  /** Replacement prompt templates, e.g. read from a `--plan-prompts` directory. */
  templates?: Partial<Record<AgentPhaseName, string>>;
  minBytes?: Partial<Record<AgentPhaseName, number>>;
}

/** The phases with some templates or minimum sizes replaced; the input is left as it was. */
export function withOverrides(phases: readonly PhaseSpec[], overrides: PhaseOverrides): PhaseSpec[] {
  return phases.map((phase) => {
    if (phase.runner !== 'agent') return phase;
    const template = overrides.templates?.[phase.name] ?? phase.template;
    const minBytes = overrides.minBytes?.[phase.name] ?? phase.minBytes;
    if (!Number.isInteger(minBytes) || minBytes < 0) {
      throw new RangeError(
        `minimum size of the ${phase.name} artifact must be a whole number of bytes, 0 or more; got ${String(minBytes)}`,
      );
    }
    return { ...phase, template, minBytes };
  });
}

/** The absolute path of a phase's artifact (for phase_decomposition, the phases directory). */
export function artifactPath(stateDir: string, phase: Pick<AgentPhaseSpec, 'artifact'>): string {
  return path.join(path.resolve(stateDir), PIPELINE_DIR, phase.artifact);
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/**
 * Fills `{{name}}` placeholders in one pass, so a value that itself contains `{{goal}}` (a research
 * report quoting a template, say) is not expanded again. Placeholders with no value given, and
 * unknown ones, are left as they are.
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name as Placeholder] : undefined;
    return value ?? whole;
  });
}

/** The `{{names}}` a template uses that `renderTemplate` does not know: likely typos in an override. */
export function unknownPlaceholders(template: string): string[] {
  const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
  return [...new Set(names.filter((n) => !(PLACEHOLDERS as readonly string[]).includes(n)))];
}

/** The `{{failure}}` value of a retry: what the barrier found wrong with the previous attempt's artifact. */
export function failureSection(problems: readonly string[]): string {
  if (problems.length === 0) return '';
  return `\nThe previous attempt of this phase did not leave a usable artifact. Fix exactly this:\n${problems.map((p) => `- ${p}`).join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// decomposition.json

/** How a JSON value reads in a message: "a number (3)", "null", "an array". */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean')
    return `${typeof value === 'number' ? 'a number' : 'a boolean'} (${String(value)})`;
  return `an ${typeof value}`;
}

function text(what: string) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined
          ? `is missing: expected ${what}`
          : `must be a string (${what}), got ${describeValue(iss.input)}`,
    })
    .refine((s) => s.trim() !== '', { error: `must not be empty: expected ${what}` });
}

function list<T extends z.ZodType>(item: T, what: string) {
  return z.array(item, {
    error: (iss) =>
      iss.input === undefined
        ? `is missing: expected a list of ${what}`
        : `must be a list of ${what}, got ${describeValue(iss.input)}`,
  });
}

const ComponentSchema = z.looseObject(
  {
    name: text('a short unique name for the component'),
    description: text('what the component does'),
    depends_on: list(text('the name of another component'), 'component names').optional(),
    acceptance_criteria: list(text('a testable behaviour'), 'testable behaviours').optional(),
  },
  { error: (iss) => `must be an object with name and description, got ${describeValue(iss.input)}` },
);

/**
 * decomposition.json. Seed 001's phase files are requirements with testable behaviours, so a
 * component carries `acceptance_criteria`; `depends_on` orders the work. Extra fields are kept.
 * Besides the shapes: at least one component, unique names, and `depends_on` naming only other
 * existing components, without cycles.
 */
export const DecompositionSchema = z
  .looseObject(
    {
      goal: text('the goal being decomposed'),
      components: list(ComponentSchema, 'components').min(1, { error: 'must list at least one component' }),
    },
    { error: (iss) => `the file must hold a JSON object with goal and components, got ${describeValue(iss.input)}` },
  )
  .superRefine((value, ctx) => {
    const names = value.components.map((c) => c.name);
    const firstIndex = new Map<string, number>();
    names.forEach((name, i) => {
      const earlier = firstIndex.get(name);
      if (earlier === undefined) firstIndex.set(name, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: ['components', i, 'name'],
          message: `${JSON.stringify(name)} is also the name of components[${earlier}]; names must be unique`,
        });
    });
    value.components.forEach((component, i) => {
      (component.depends_on ?? []).forEach((dep, j) => {
        if (dep === component.name) {
          ctx.addIssue({
            code: 'custom',
            path: ['components', i, 'depends_on', j],
            message: `${JSON.stringify(dep)} is the component itself; a component cannot depend on itself`,
          });
        } else if (!firstIndex.has(dep)) {
          ctx.addIssue({
            code: 'custom',
            path: ['components', i, 'depends_on', j],
            message: notAComponent(dep, firstIndex.keys()),
          });
        }
      });
    });
    const cycle = findCycle(value.components);
    if (cycle)
      ctx.addIssue({
        code: 'custom',
        path: ['components'],
        message: `depends_on forms a cycle: ${cycle.join(' → ')}; no order of the work satisfies it`,
      });
  });

export type Decomposition = z.infer<typeof DecompositionSchema>;
export type DecompositionComponent = Decomposition['components'][number];

/** A dependency cycle among the components (first name repeated at the end), ignoring self-edges and unknown names. */
function findCycle(components: readonly { name: string; depends_on?: string[] | undefined }[]): string[] | undefined {
  const edges = new Map<string, string[]>();
  for (const c of components)
    if (!edges.has(c.name))
      edges.set(
        c.name,
        (c.depends_on ?? []).filter((d) => d !== c.name),
      );
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (name: string): string[] | undefined => {
    if (state.get(name) === 'done' || !edges.has(name)) return undefined;
    if (state.get(name) === 'visiting') return [...stack.slice(stack.indexOf(name)), name];
    state.set(name, 'visiting');
    stack.push(name);
    for (const next of edges.get(name) ?? []) {
      const found = visit(next);
      if (found) return found;
    }
    stack.pop();
    state.set(name, 'done');
    return undefined;
  };
  for (const name of edges.keys()) {
    const found = visit(name);
    if (found) return found;
  }
  return undefined;
}

/** `components[0].depends_on[1]: message`, or `(top level): message` for the document itself. */
export function formatSchemaIssue(issue: z.core.$ZodIssue): string {
  let where = '';
  for (const key of issue.path)
    where += typeof key === 'number' ? `[${key}]` : `${where === '' ? '' : '.'}${String(key)}`;
  return `${where === '' ? '(top level)' : where}: ${issue.message}`;
}

/** Pure: validates parsed decomposition JSON; the problems read `path: message`. */
export function validateDecomposition(
  data: unknown,
): { ok: true; value: Decomposition } | { ok: false; problems: string[] } {
  const result = DecompositionSchema.safeParse(data);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: result.error.issues.map(formatSchemaIssue) };
}
