/**
 * The runner's log commands around the loop's events: one collapsible group per iteration, a
 * warning annotation per escalation, per source warning (an outsider's issue skipped, a truncated
 * listing) and per checkpoint skipped as unusable; a halt is the error annotation set from the result.
 */
export function workflowCommands(): (event: string, level: string, message: string) => string {
  let open = false;
  const close = () => (open ? ((open = false), '::endgroup::\n') : '');
  const escape = (m: string) => m.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return (event, _level, message) => {
    if (event === 'iteration.start') {
      const text = `${close()}::group::${escape(message)}\n`;
      open = true;
      return text;
    }
    if (event === 'cycle.escalated' || event === 'source.warning' || event === 'checkpoint.invalid')
      return `${close()}::warning::${escape(message)}\n`;
    if (event === 'cycle.start' || event.startsWith('run.') || event === 'slice.end' || event === 'halt.diagnostic')
      return close();
    return '';
  };
}
