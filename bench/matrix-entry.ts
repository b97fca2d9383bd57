// The stand-ins the fan-out benchmark (bench/matrix.mjs) runs the action's plan, work and reduce jobs
// against: the GitHub REST stand-in and the Actions cache and artifact emulator, bundled by ncc into
// build/bench-matrix/index.js so that plain Node can import them.
export { startGitHubServer } from '../e2e/support/githubServer.js';
export { startActionsServices } from '../e2e/support/actionsServices.js';
