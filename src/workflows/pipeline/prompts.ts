/**
 * The built-in prompts of the planning pipeline's agent phases (--plan-prompts replaces them by
 * phase): a prompt table, where a line is a line of the prompt, so its lines are as long as the text's.
 */
/** The pipeline's phases run by an agent. */
export type AgentPhaseName = 'research' | 'decomposition' | 'planning' | 'phase_decomposition';

const PHASE_FILE_RULES = `Name each file NN-<name>.md: NN is the phase number with two digits, starting at 01 and counting up without gaps (01, 02, 03, …); <name> is a short kebab-case name made of letters, digits, "-" or "_" (for example 01-storage-layer.md). Write nothing else in that directory.`;

export const DEFAULT_TEMPLATES: Readonly<Record<AgentPhaseName, string>> = {
  research: `You are the research agent of a planning pipeline in this repository.

Goal:
{{goal}}

Study the repository with this goal in mind: the code, tests, build and documentation that it touches, the conventions the code follows, the constraints and risks, and open questions. Do not change any file of the repository.

Write your findings as a Markdown report to this file (create it; it is agent-loop's state, never committed):
{{artifact}}

The report must be self-contained: the next agents read only the report, not your session. Name files and functions precisely.
{{failure}}`,
  decomposition: `You are the decomposition agent of a planning pipeline in this repository.

Goal:
{{goal}}

Research report:
{{research}}

Decompose the goal into components: coherent units of work, each of which can be built and tested on its own. Do not change any file of the repository.

Write the decomposition as JSON to this file (create it; it is agent-loop's state, never committed):
{{artifact}}

The file must hold exactly one JSON object of this shape, and nothing else (no Markdown fences):
{
  "goal": "the goal in one or two sentences",
  "components": [
    {
      "name": "short-unique-name",
      "description": "what this component does and why",
      "depends_on": ["names of components that must exist first"],
      "acceptance_criteria": ["a testable behaviour", "another testable behaviour"]
    }
  ]
}
There must be at least one component; names must be unique; depends_on may only name other components, without cycles; depends_on and acceptance_criteria may be left out.
{{failure}}`,
  planning: `You are the planning agent of a planning pipeline in this repository.

Goal:
{{goal}}

Research report:
{{research}}

Decomposition (JSON):
{{decomposition}}

Write a test-driven implementation plan in Markdown to this file (create it; it is agent-loop's state, never committed):
{{artifact}}

For every component: the tests to write first (each one a testable behaviour), the code that makes them pass, and the order of the work, respecting the dependencies between components. Do not change any file of the repository.
{{failure}}`,
  phase_decomposition: `You are the phase agent of a planning pipeline in this repository.

Goal:
{{goal}}

Implementation plan:
{{plan}}

Split the plan into phases that are implemented one after another: phase N+1 may rely on everything phase N built. Each phase must be small enough for one agent session and end with the tests passing.

Write one Markdown file per phase into this directory (create it; it is agent-loop's state, never committed):
{{artifact}}

${PHASE_FILE_RULES}
Start each file with a "# " heading that is the phase's title, then its requirements and their testable behaviours, then its success criteria. Each file must be self-contained: an agent will implement the phase from that file alone. Do not change any file of the repository.
{{failure}}`,
};
