/** The issue sources' long messages, one string each so a search finds them whole. */
import { NO_CHANGE_LABEL } from './types.js';

/** The end of a no-change comment on a GitHub issue: what was done, and how to have it tried again. */
export const noChangeNext = (closed: boolean) =>
  closed
    ? `Nothing was changed or merged: the issue's own tests pass, so it is closed. Reopen it and remove the ${NO_CHANGE_LABEL} label to have agent-loop try it again.`
    : `Nothing was changed or merged. Close this issue if that is right; remove the ${NO_CHANGE_LABEL} label to have agent-loop try it again.`;
