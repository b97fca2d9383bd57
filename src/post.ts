// The GitHub Action's post step (always runs). Publishing the state directory through the cache
// and an artifact comes with the persistence slice; until then it only says so. Post never fails
// the job: it only warns.
import * as core from '@actions/core';

core.info('agent-loop post: the checkpoint stays in the workspace; publishing it to the cache and an artifact is not in this build yet.');
