import { describe, expect, it } from '@jest/globals';
import { authorizationHeader, remoteAuthEnv } from '../../src/git/remoteAuth.js';

const TOKEN = 'ghs_0123456789abcdefghijklmnopqrstuvwxyzAB';

describe("remoteAuthEnv: the action's credentials for one git process", () => {
  it("resets the server's extraheader, then sets the basic auth of x-access-token, as actions/checkout would", () => {
    const header = authorizationHeader(TOKEN);
    expect(header).toBe(`AUTHORIZATION: basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`);
    expect(remoteAuthEnv(TOKEN, 'https://github.com', {})).toEqual({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_0: '',
      GIT_CONFIG_KEY_1: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_1: header,
    });
  });

  it("keys the header by the server's origin (GitHub Enterprise, a path or trailing slash in GITHUB_SERVER_URL)", () => {
    expect(remoteAuthEnv(TOKEN, 'https://ghe.example.com/', {}).GIT_CONFIG_KEY_1).toBe(
      'http.https://ghe.example.com/.extraheader',
    );
    expect(remoteAuthEnv(TOKEN, 'http://127.0.0.1:8080/x', {}).GIT_CONFIG_KEY_1).toBe(
      'http.http://127.0.0.1:8080/.extraheader',
    );
  });

  it('comes after configuration entries the environment already holds, never replacing them', () => {
    const env = remoteAuthEnv(TOKEN, 'https://github.com', {
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'a.b',
      GIT_CONFIG_VALUE_0: '1',
    });
    expect(env.GIT_CONFIG_COUNT).toBe('4');
    expect(env).not.toHaveProperty('GIT_CONFIG_KEY_0');
    expect(env.GIT_CONFIG_KEY_3).toBe('http.https://github.com/.extraheader');
    expect(remoteAuthEnv(TOKEN, 'https://github.com', { GIT_CONFIG_COUNT: 'junk' }).GIT_CONFIG_COUNT).toBe('2');
  });
});
