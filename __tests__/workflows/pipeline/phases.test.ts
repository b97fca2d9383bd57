import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { PIPELINE_PHASES } from '../../../src/checkpoint/types.js';
import {
  DEFAULT_TEMPLATES,
  PRE_IMPLEMENTATION_PHASES,
  artifactPath,
  failureSection,
  phaseSpec,
  renderTemplate,
  unknownPlaceholders,
  validateDecomposition,
  withOverrides,
  type AgentPhaseSpec,
} from '../../../src/workflows/pipeline/phases.js';

const agentPhases = PRE_IMPLEMENTATION_PHASES.filter((p): p is AgentPhaseSpec => p.runner === 'agent');

describe('the phases before implementation, as data', () => {
  it('are the first five pipeline phases, in order, each with its checkpoint state key', () => {
    expect(PRE_IMPLEMENTATION_PHASES.map((p) => p.name)).toEqual(PIPELINE_PHASES.slice(0, 5));
    expect(PRE_IMPLEMENTATION_PHASES.map((p) => p.stateKey)).toEqual([
      'research_output',
      'decomposition_result',
      'planning_output',
      'phase_files',
      'beads_data',
    ]);
  });

  it('give each agent phase its artifact under <state-dir>/pipeline and a positive minimum size', () => {
    expect(agentPhases.map((p) => [p.name, p.artifact, p.kind])).toEqual([
      ['research', 'research.md', 'markdown'],
      ['decomposition', 'decomposition.json', 'decomposition'],
      ['planning', 'plan.md', 'markdown'],
      ['phase_decomposition', 'phases/', 'phase-files'],
    ]);
    for (const phase of agentPhases) expect(phase.minBytes).toBeGreaterThan(0);
    expect(artifactPath('/state', agentPhases[0] as AgentPhaseSpec)).toBe(
      path.join('/state', 'pipeline', 'research.md'),
    );
  });

  it('leave beads_integration to code: no agent, no template, no artifact', () => {
    expect(phaseSpec('beads_integration')).toEqual({
      name: 'beads_integration',
      runner: 'code',
      stateKey: 'beads_data',
    });
    expect(phaseSpec('implementation')).toBeUndefined();
  });

  it('tell every agent where to write its artifact, with the inputs of the phases before it', () => {
    expect(DEFAULT_TEMPLATES.research).toContain('{{goal}}');
    expect(DEFAULT_TEMPLATES.decomposition).toEqual(expect.stringContaining('{{research}}'));
    expect(DEFAULT_TEMPLATES.planning).toEqual(expect.stringContaining('{{decomposition}}'));
    expect(DEFAULT_TEMPLATES.phase_decomposition).toEqual(expect.stringContaining('{{plan}}'));
    for (const phase of agentPhases) {
      expect(phase.template).toContain('{{artifact}}');
      expect(phase.template).toContain('{{failure}}');
      expect(unknownPlaceholders(phase.template)).toEqual([]);
    }
    expect(DEFAULT_TEMPLATES.phase_decomposition).toContain('NN-<name>.md');
  });

  it('take template and minimum-size overrides without changing the defaults', () => {
    const phases = withOverrides(PRE_IMPLEMENTATION_PHASES, {
      templates: { planning: 'Plan {{goal}} into {{artifact}}' },
      minBytes: { research: 10 },
    });
    expect(phaseSpec('planning', phases)).toMatchObject({ template: 'Plan {{goal}} into {{artifact}}', minBytes: 200 });
    expect(phaseSpec('research', phases)).toMatchObject({ template: DEFAULT_TEMPLATES.research, minBytes: 10 });
    expect(phaseSpec('planning')).toMatchObject({ template: DEFAULT_TEMPLATES.planning });
    expect(() => withOverrides(PRE_IMPLEMENTATION_PHASES, { minBytes: { planning: -1 } })).toThrow(
      'minimum size of the planning artifact must be a whole number of bytes, 0 or more; got -1',
    );
  });
});

describe('renderTemplate', () => {
  it('fills the known placeholders, spaces inside the braces allowed', () => {
    expect(
      renderTemplate('Goal: {{goal}} -> {{ artifact }}', { goal: 'ship it', artifact: '/s/pipeline/plan.md' }),
    ).toBe('Goal: ship it -> /s/pipeline/plan.md');
  });

  it('leaves unknown placeholders, and known ones with no value, as they are', () => {
    expect(renderTemplate('{{goal}} {{unknown}} {{plan}} {{toString}}', { goal: 'g' })).toBe(
      'g {{unknown}} {{plan}} {{toString}}',
    );
  });

  it('does not expand placeholders that appear inside a value', () => {
    expect(renderTemplate('{{research}} / {{goal}}', { research: 'quotes {{goal}}', goal: 'G' })).toBe(
      'quotes {{goal}} / G',
    );
  });

  it('points out placeholders of an override that it does not know (likely typos)', () => {
    expect(unknownPlaceholders('{{goal}} {{reserch}} {{reserch}} {{ plan }}')).toEqual(['reserch']);
  });

  it('renders the barrier problems of a failed attempt for the retry prompt', () => {
    expect(failureSection([])).toBe('');
    expect(failureSection(['plan.md is missing'])).toContain('- plan.md is missing');
  });
});

describe('DecompositionSchema', () => {
  const valid = {
    goal: 'Resumable pipeline',
    components: [
      { name: 'checkpoint', description: 'Persist state', acceptance_criteria: ['id is a UUID v4'] },
      { name: 'resume', description: 'Pick up where it stopped', depends_on: ['checkpoint'], rationale: 'kept' },
    ],
  };

  it('accepts a goal with components and keeps extra fields', () => {
    const result = validateDecomposition(valid);
    expect(result).toEqual({ ok: true, value: valid });
  });

  it.each([
    [null, ['(top level): the file must hold a JSON object with goal and components, got null']],
    [[], ['(top level): the file must hold a JSON object with goal and components, got an array']],
    [
      {},
      ['goal: is missing: expected the goal being decomposed', 'components: is missing: expected a list of components'],
    ],
    [
      { goal: 7, components: 'x' },
      [
        'goal: must be a string (the goal being decomposed), got a number (7)',
        'components: must be a list of components, got the string "x"',
      ],
    ],
    [
      { goal: ' ', components: [] },
      ['goal: must not be empty: expected the goal being decomposed', 'components: must list at least one component'],
    ],
    [
      { goal: 'g', components: [3, { name: '' }] },
      [
        'components[0]: must be an object with name and description, got a number (3)',
        'components[1].name: must not be empty: expected a short unique name for the component',
        'components[1].description: is missing: expected what the component does',
      ],
    ],
    [
      { goal: 'g', components: [{ name: 'a', description: 'd', depends_on: 'b', acceptance_criteria: [1] }] },
      [
        'components[0].depends_on: must be a list of component names, got the string "b"',
        'components[0].acceptance_criteria[0]: must be a string (a testable behaviour), got a number (1)',
      ],
    ],
  ])('names the path and the problem of each shape error: %j', (input, problems) => {
    expect(validateDecomposition(input)).toEqual({ ok: false, problems });
  });

  it('requires unique names and depends_on naming other existing components', () => {
    const result = validateDecomposition({
      goal: 'g',
      components: [
        { name: 'a', description: 'd', depends_on: ['a', 'zz'] },
        { name: 'a', description: 'again' },
      ],
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        'components[1].name: "a" is also the name of components[0]; names must be unique',
        'components[0].depends_on[0]: "a" is the component itself; a component cannot depend on itself',
        'components[0].depends_on[1]: "zz" is not the name of a component (the components are "a")',
      ],
    });
  });

  it('rejects a dependency cycle, naming it', () => {
    const result = validateDecomposition({
      goal: 'g',
      components: [
        { name: 'a', description: 'd', depends_on: ['c'] },
        { name: 'b', description: 'd', depends_on: ['a'] },
        { name: 'c', description: 'd', depends_on: ['b'] },
      ],
    });
    expect(result).toEqual({
      ok: false,
      problems: ['components: depends_on forms a cycle: a → c → b → a; no order of the work satisfies it'],
    });
  });
});
