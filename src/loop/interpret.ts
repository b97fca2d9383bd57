/**
 * Runs a workflow's pure step machine to its end, the way the engine's interpreter runs the core:
 * each step's effects are performed in order through `perform`; an effect answered by an event (it
 * has a `type`) feeds the next step, an effect answered by an outcome ends the run with it.
 */
export async function interpret<M, Ev extends { type: string }, Ef, Out extends object>(
  step: (model: M, event: Ev) => { model: M; effects: Ef[] },
  start: { model: M; event: Ev },
  perform: (effect: Ef) => Promise<Ev | Out | undefined>,
  what: string,
): Promise<Out> {
  let { model, event } = start;
  for (;;) {
    const stepped = step(model, event);
    model = stepped.model;
    let next: Ev | undefined;
    for (const effect of stepped.effects) {
      const answer = await perform(effect);
      if (answer === undefined) continue;
      if (!('type' in answer)) return answer;
      next = answer;
    }
    if (!next) throw new Error(`${what}: a step asked for nothing and did not finish`);
    event = next;
  }
}
