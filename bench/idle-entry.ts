// The stand-ins the idle-run benchmark (bench/idle.mjs) runs the action against, bundled by ncc into
// build/bench-idle/index.js so that plain Node can import them.
export { startGitHubServer } from '../e2e/support/githubServer.js';
export { startActionsServices } from '../e2e/support/actionsServices.js';
