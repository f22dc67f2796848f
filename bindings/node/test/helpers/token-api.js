'use strict';
// The app backend's side of sign-in tokens, played against the emulator's token API (signin-token.md): users
// made and tokens minted with the team's API key, as the Python suite's test_sign_in_token.py does.
const { randomUUID } = require('node:crypto');

const TEAM_KEY = 'jump-team-key';

/** A call to the emulator's /v2 API with an API key; the JSON answer (a failure throws). */
async function api(emu, method, urlPath, body = undefined, key = TEAM_KEY) {
  const response = await fetch(emu.url + urlPath, {
    method,
    headers: { 'x-jump-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath} -> ${response.status}: ${text}`);
  return text ? JSON.parse(text) : {};
}

/** A new user of the team; its user_id. */
async function newUser(emu, key = TEAM_KEY) {
  return (await api(emu, 'POST', '/v2/user', { client_user_id: randomUUID() }, key)).user_id;
}

/** A fresh sign-in token for userId. */
async function mint(emu, userId, key = TEAM_KEY) {
  return (await api(emu, 'POST', `/v2/user/${userId}/sign_in_token`, undefined, key)).sign_in_token;
}

/** A config for a sign-in-token app on the emulator (no Capture settings). */
function tokenConfig(emu, overrides = {}) {
  const config = emu.config({ signInTokenAuthBaseUrl: emu.url, signInTokenApiBaseUrl: emu.url });
  for (const key of ['captureDomain', 'captureClientId', 'captureAppId', 'captureFlowName', 'captureFlowDomain']) {
    delete config[key];
  }
  return { ...config, ...overrides };
}

/** The emulator's request counters ("POST /v1/token": n, ...). */
async function counters(emu) {
  return (await emu.admin('GET', '/emulator/counters')).counters ?? {};
}

function clearCounters(emu) {
  return emu.admin('DELETE', '/emulator/counters');
}

module.exports = { TEAM_KEY, api, newUser, mint, tokenConfig, counters, clearCounters };
