// The GitHub REST stand-in the API-calls benchmark (bench/githubCalls.mjs) runs the action against,
// bundled by ncc into build/bench-github/index.js so that plain Node can import it.
export { startGitHubServer } from '../e2e/support/githubServer.js';
