// A workflow value as GitHub evaluates it, with GitHub's own expression evaluator (@actions/expressions):
// `${{ expr }}` alone gives the expression's value with its type (a boolean stays a boolean); text
// with expressions in it gives a string; a YAML literal stays what it is.
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';

const EXPRESSION = /\$\{\{(.*?)\}\}/gs;
const WHOLE = /^\s*\$\{\{(.*)\}\}\s*$/s;

/** Whether a workflow value holds an expression. */
export const hasExpression = (value) => typeof value === 'string' && /\$\{\{/.test(value);

/**
 * The value GitHub gives `value` in `contexts` (plain objects: `{ inputs: {…}, vars: {…} }`).
 * Throws an Error (ExpressionError) when the value reads a context not given, or is not an expression
 * GitHub would accept.
 */
export function evaluate(value, contexts) {
  if (typeof value !== 'string' || !hasExpression(value)) return value;
  const names = Object.keys(contexts);
  const dictionary = JSON.parse(JSON.stringify(contexts), data.reviver);
  const run = (expr) => {
    const parsed = new Parser(new Lexer(expr).lex().tokens, names, []).parse();
    return new Evaluator(parsed, dictionary).evaluate();
  };
  const whole = WHOLE.exec(value);
  if (whole && !whole[1].includes('}}')) return JSON.parse(JSON.stringify(run(whole[1]), data.replacer));
  return value.replace(EXPRESSION, (_, expr) => run(expr).coerceString());
}

/** What a step's input becomes (the runner gives an action every input as a string): true → 'true', null → ''. */
export const asInput = (value) => JSON.parse(JSON.stringify(value ?? null), data.reviver).coerceString();
