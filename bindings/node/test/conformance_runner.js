'use strict';
// The Node.js binding's conformance runner (Tests/conformance/README.md is its contract): plays one scenario of
// Tests/conformance/scenarios.json with the binding's public API against $JUMP_EMULATOR_URL and prints one
// outcome line. It judges nothing: Tests/conformance/run.py compares the line with the scenario's "expect".
//   node bindings/node/test/conformance_runner.js <scenario name>
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const jump = require('../index');

const OK = 'JUMP_OK';

/** The status name of a failure: the JumpError's own, JUMP_E_CANCELLED for the AbortError of an aborted call. */
function statusOf(error) {
  if (error instanceof jump.JumpError) return error.statusName;
  if (error instanceof jump.AbortError) return 'JUMP_E_CANCELLED';
  throw error;
}

/** [status name, result] of a call (a value or a Promise). */
async function attempt(call) {
  try {
    return [OK, await call()];
  } catch (error) {
    return [statusOf(error), null];
  }
}

class Scenario {
  constructor(name) {
    const document = JSON.parse(fs.readFileSync(process.env.JUMP_CONFORMANCE_SCENARIOS, 'utf8'));
    this.url = process.env.JUMP_EMULATOR_URL.replace(/\/$/, '');
    this.values = { '${EMULATOR_URL}': this.url, '${STORAGE_DIR}': path.join(process.env.JUMP_CONFORMANCE_TMP, 'storage') };
    this.input = document.scenarios.find((s) => s.name === name).input;
    this.configs = document.configs;
  }

  /** value with its placeholders replaced (recursively). */
  fill(value) {
    if (typeof value === 'string') {
      for (const [placeholder, actual] of Object.entries(this.values)) value = value.split(placeholder).join(actual);
      return value;
    }
    if (Array.isArray(value)) return value.map((v) => this.fill(v));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.fill(v)]));
    }
    return value;
  }

  get(key) {
    return this.fill(this.input[key]);
  }

  client(config) {
    return new jump.Client(this.fill(this.configs[config || this.input.config]));
  }

  /** Sends input[key], an admin request, with Node's own HTTP client; its JSON answer. */
  async admin(key) {
    return this.send(this.get(key));
  }

  /** Sends an admin request ({method, path, headers?, body?}); its JSON answer. */
  async send(spec) {
    const headers = { ...(spec.headers || {}) };
    if (spec.body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
    const response = await fetch(this.url + spec.path, {
      method: spec.method,
      headers,
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${spec.method} ${spec.path} -> ${response.status}: ${text}`);
    return text.trim() ? JSON.parse(text) : {};
  }

  async adminResult(key) {
    return (await this.admin(key))[this.input[key].result];
  }

  async counter(key, name) {
    return Number(((await this.admin(key)).counters || {})[name] || 0);
  }
}

/** Runs body(client) and closes the client whatever happens. */
async function withClient(s, body) {
  const client = s.client();
  try {
    return await body(client);
  } finally {
    client.close();
  }
}

/** One request of the loopback scenario's browser, redirects not followed: [HTTP status, Location]. */
async function browserCall(url, form) {
  const response = await fetch(url, {
    method: form === undefined ? 'GET' : 'POST',
    redirect: 'manual',
    headers: form === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form === undefined ? undefined : new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(30000),
  });
  await response.text();
  return [response.status, response.headers.get('location')];
}

/** The browser of the loopback sign-in (README, loopback_social_sign_in): the provider's start page, its form
 * posted to .../callback (the start URL's query kept) with the identity, then the provider's redirect to the
 * listener; that landing page's HTTP status. */
async function browse(url, identity) {
  const [pageStatus] = await browserCall(url);
  if (pageStatus !== 200) throw new Error(`the provider's start page answered ${pageStatus}`);
  const callback = new URL(url);
  callback.pathname = callback.pathname.replace(/\/start$/, '/callback');
  const [status, location] = await browserCall(callback.href, identity);
  if (![301, 302, 303, 307].includes(status) || !location) throw new Error(`the provider answered ${status} without a redirect`);
  return (await browserCall(new URL(location, callback).href))[0];
}

/** Host storage in a Map, counting saves. */
class MapStorage {
  entries = new Map();
  saves = 0;

  load(key) {
    return this.entries.get(key) ?? null;
  }

  save(key, data) {
    this.saves += 1;
    this.entries.set(key, Buffer.from(data));
  }

  erase(key) {
    this.entries.delete(key);
  }
}

const register = (s, client) => attempt(() => client.registerTraditional(s.get('user'), s.get('password')));

const scenarios = {
  async register_sign_in_bad_password(s) {
    const out = {};
    const login = s.get('user')[s.input.sign_in_with];
    await withClient(s, async (client) => {
      const [status, registered] = await register(s, client);
      out.register = { status, is_new: registered && registered.isNew, signed_in: client.isSignedIn };
      out.sign_out = { status: (await attempt(() => client.signOut()))[0], signed_in: client.isSignedIn };
      const [signInStatus, signed] = await attempt(() => client.signIn(login, s.get('password')));
      out.sign_in = {
        status: signInStatus,
        is_new: signed && signed.isNew,
        same_uuid: Boolean(signed && registered && signed.uuid === registered.uuid),
        signed_in: client.isSignedIn,
      };
      out.record_email = client.record.getString('/email');
      const [wrong] = await attempt(() => client.signIn(login, s.get('wrong_password')));
      out.wrong_password = { status: wrong, signed_in: client.isSignedIn };
    });
    return out;
  },

  async edit_sync_plural_append(s) {
    const out = {};
    const edit = s.get('edit');
    const append = s.get('append');
    const plural = append.plural;
    await withClient(s, async (client) => {
      await register(s, client);
      client.record.setString(edit.path, edit.value);
      let [status, synced] = await attempt(() => client.sync());
      out.sync_edit = { status, changed: synced && synced.changed };
      out.append_path = client.record.append(plural, append.element);
      [status, synced] = await attempt(() => client.sync());
      const renamed = (synced && synced.renamed) || {};
      const element = new RegExp(`^${plural.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#[1-9][0-9]*$`);
      const targets = Object.values(renamed);
      out.sync_append = {
        status,
        changed: synced && synced.changed,
        renamed_from: Object.keys(renamed).sort(),
        renamed_to_server_id: targets.length > 0 && targets.every((p) => element.test(p)),
      };
      out.fetch = { status: (await attempt(() => client.fetchRecord()))[0] };
      const record = client.record;
      out.edited_value = record.getString(edit.path);
      out.plural_count = record.elementCount(plural);
      const paths = record.elementPaths(plural);
      out.plural_members = paths.map((p) => record.getString(`${p}/${append.member}`));
      out.element_paths_are_renamed = JSON.stringify(paths) === JSON.stringify(targets);
      out.unsynced_changes = client.state().unsyncedChanges;
    });
    return out;
  },

  async refresh_after_clock_moves(s) {
    return withClient(s, async (client) => {
      await register(s, client);
      await s.admin('clear_counters');
      await s.admin('advance_clock');
      const [fetched] = await attempt(() => client.fetchRecord());
      return {
        fetch: { status: fetched },
        refresh_requests: await s.counter('counters', s.input.refresh_counter),
        signed_in: client.isSignedIn,
        record_email: client.record.getString('/email'),
      };
    });
  },

  async passing_server_error(s) {
    return withClient(s, async (client) => {
      await register(s, client);
      await s.admin('clear_counters');
      await s.admin('fault_once');
      const [passing] = await attempt(() => client.fetchRecord());
      const passingRequests = await s.counter('counters', s.input.entity_counter);
      await s.admin('fault_lasting');
      const [lasting] = await attempt(() => client.fetchRecord());
      return {
        passing: { status: passing },
        entity_requests_passing: passingRequests,
        lasting: { status: lasting },
        entity_requests: await s.counter('counters', s.input.entity_counter),
        signed_in: client.isSignedIn,
      };
    });
  },

  async sign_out_restart(s) {
    const out = {};
    let registered = null;
    await withClient(s, async (first) => {
      let status;
      [status, registered] = await register(s, first);
      out.first = { status, signed_in: first.isSignedIn };
    });
    await withClient(s, async (restored) => {
      out.restored = {
        signed_in: restored.isSignedIn,
        same_uuid: Boolean(registered) && restored.state().uuid === registered.uuid,
        record_email: restored.record.getString('/email'),
      };
      out.sign_out = { status: (await attempt(() => restored.signOut()))[0], signed_in: restored.isSignedIn };
    });
    await withClient(s, async (after) => {
      out.after_sign_out = { signed_in: after.isSignedIn };
    });
    return out;
  },

  async sign_in_token_session(s) {
    const out = {};
    const userId = await s.adminResult('create_user');
    s.values['${USER_ID}'] = userId;
    const token = await s.adminResult('mint');
    const [decodeStatus, decoded] = await attempt(() => jump.decodeSignInToken(token));
    out.decode = {
      status: decodeStatus,
      user_id_matches: Boolean(decoded) && decoded.userId === userId,
      environment: decoded && decoded.environment,
      region: decoded && decoded.region,
    };
    await withClient(s, async (client) => {
      out.before = { signed_in: client.status().signedIn };
      const [status, signed] = await attempt(() => client.signInWithToken(token));
      out.sign_in = {
        status,
        user_id_matches: Boolean(signed) && signed.userId === userId,
        changed: signed && signed.changed,
        migrated: signed && signed.migrated,
      };
      const now = client.status();
      out.status = {
        signed_in: now.signedIn,
        use_sign_in_token: now.useSignInToken,
        use_api_key: now.useApiKey,
        user_id_matches: now.userId === userId,
      };
      const profilePath = s.get('profile_path');
      const [putStatus, put] = await attempt(() => client.request('PUT', profilePath, {
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(s.get('profile')),
      }));
      out.put = { status: putStatus, http_status: put && put.status };
      const [getStatus, got] = await attempt(() => client.request('GET', profilePath));
      out.get = { status: getStatus, http_status: got && got.status, data: got && JSON.parse(got.body).data };
      const againToken = await s.adminResult('mint');
      const [againStatus, again] = await attempt(() => client.signInWithToken(againToken));
      out.sign_in_again = { status: againStatus, changed: again && again.changed };
      out.sign_out = { status: (await attempt(() => client.signOut()))[0] };
      out.after_sign_out = { signed_in: client.status().signedIn };
    });
    return out;
  },

  async cancel_async(s) {
    return withClient(s, async (client) => {
      await register(s, client);
      await s.admin('clear_counters');
      await s.admin('delay');
      const controller = new AbortController();
      let completions = 0;
      let outcome = null;
      let completedAt = null;
      const settled = client.fetchRecord({ signal: controller.signal }).then(
        () => { completions += 1; outcome = OK; completedAt = performance.now(); },
        (error) => { completions += 1; outcome = statusOf(error); completedAt = performance.now(); },
      );
      const deadline = performance.now() + s.input.reach_timeout_ms;
      while ((await s.counter('counters', s.input.reached_counter)) < 1 && performance.now() < deadline) await sleep(20);
      const pending = completions === 0;
      controller.abort();
      const cancelledAt = performance.now();
      await Promise.race([settled, sleep(10000, undefined, { ref: false })]);
      const within = completedAt !== null && completedAt - cancelledAt < s.input.cancel_deadline_ms;
      await sleep(s.input.settle_ms);
      return { pending_before_cancel: pending, status: outcome, completions, within_deadline: within, signed_in: client.isSignedIn };
    });
  },

  async several_accounts(s) {
    const out = {};
    const [ann, bob] = s.get('users');
    const password = s.get('password');
    await withClient(s, async (client) => {
      for (const user of [ann, bob]) { // each registration signs its user in (a second account with "multiple")
        const [status] = await attempt(() => client.registerTraditional(user, password));
        if (status !== OK) throw new Error(`registering a user: ${status}`);
      }
      for (const user of [ann, bob]) await client.signIn(user.email, password);
      const listed = () => {
        const saved = client.accounts();
        const active = saved.accounts.find((a) => a.uuid === saved.active);
        return [saved.accounts, active ? active.email : null];
      };
      let [accounts, activeEmail] = listed();
      out.after_two_sign_ins = { count: accounts.length, active_email: activeEmail, emails: accounts.map((a) => a.email).sort() };
      const uuidOf = Object.fromEntries(accounts.map((a) => [a.email, a.uuid]));
      const [switched] = await attempt(() => client.switchAccount(uuidOf[ann.email]));
      out.switch = { status: switched, record_email: client.record.getString('/email') };
      const [removed] = await attempt(() => client.removeAccount(uuidOf[bob.email]));
      [accounts, activeEmail] = listed();
      out.remove = { status: removed, count: accounts.length, signed_in: client.isSignedIn, active_email: activeEmail };
      out.switch_removed = { status: (await attempt(() => client.switchAccount(uuidOf[bob.email])))[0] };
    });
    return out;
  },

  // The five scenarios of issue 41 (README: loopback_social_sign_in ... api_key_mode).
  async loopback_social_sign_in(s) {
    let landing; // undefined until the browser finished: its landing status, or null when it failed
    const openUrl = (url) => { // hands the URL to the "browser" (a task of the event loop) and returns
      browse(url, s.get('identity')).then(
        (status) => { landing = status; },
        (error) => { process.stderr.write(`browser: ${error && error.message}\n`); landing = null; },
      );
    };
    return withClient(s, async (client) => {
      const [status, result] = await attempt(() => client.socialSignInLoopback(s.input.provider, openUrl, { timeoutMs: s.input.timeout_ms }));
      const deadline = performance.now() + 10000;
      while (landing === undefined && performance.now() < deadline) await sleep(20);
      return {
        status,
        signed_in: client.isSignedIn,
        is_new: result && result.isNew,
        provider: result && result.provider,
        landing_status: landing === undefined ? null : landing,
      };
    });
  },

  async host_storage(s) {
    const store = new MapStorage();
    const hosted = () => new jump.Client(s.fill(s.configs[s.input.config]), { storage: store });
    const out = {};
    const first = hosted();
    try {
      out.register = { status: (await register(s, first))[0] };
    } finally {
      first.close();
    }
    out.saved_entries = store.saves >= 1 && store.entries.size > 0;
    const second = hosted();
    try {
      const [restored] = await attempt(() => second.restore());
      out.restored = { status: restored, signed_in: second.isSignedIn, record_email: second.record.getString('/email') };
    } finally {
      second.close();
    }
    return out;
  },

  async event_order(s) {
    const events = [];
    const edit = s.get('edit');
    return withClient(s, async (client) => {
      client.on('event', (event) => events.push(event.event));
      const out = { register: { status: (await register(s, client))[0] } };
      client.record.setString(edit.path, edit.value);
      out.sync = { status: (await attempt(() => client.sync()))[0] };
      out.sign_out = { status: (await attempt(() => client.signOut()))[0] };
      const deadline = performance.now() + s.input.wait_ms; // events come on later turns of the event loop
      while (!events.includes(s.input.last_event) && performance.now() < deadline) await sleep(10);
      await sleep(s.input.settle_ms);
      out.events = [...events];
      return out;
    });
  },

  async merge_flow(s) {
    const stage = await s.admin('stage');
    const account = stage.user.uuid;
    const token = stage.conflicting_identity.token;
    return withClient(s, async (client) => {
      let status = OK;
      let mergeToken = null;
      try {
        await client.socialSignInNative(s.input.provider, token);
      } catch (error) {
        status = statusOf(error);
        mergeToken = error.mergeToken ?? null;
      }
      const out = { social: { status, has_merge_token: typeof mergeToken === 'string' && mergeToken.length > 0, signed_in: client.isSignedIn } };
      const [mergeStatus, merged] = await attempt(() => client.signInMerge(s.get('login'), s.get('password'), mergeToken || ''));
      out.merge = {
        status: mergeStatus,
        signed_in: client.isSignedIn,
        same_uuid_as_password_account: Boolean(merged) && merged.uuid === account,
        merged: merged ? merged.merged ?? null : null,
      };
      return out;
    });
  },

  async api_key_mode(s) {
    const apiKey = await s.adminResult('create_team');
    s.values['${API_KEY}'] = apiKey;
    const userId = await s.adminResult('create_user');
    s.values['${USER_ID}'] = userId;
    return withClient(s, async (client) => {
      const [status] = await attempt(() => client.useApiKey(apiKey, { userId, environment: s.input.environment, region: s.input.region }));
      const out = { use_api_key: { status } };
      let now = client.status();
      out.status = { use_api_key: now.useApiKey, use_sign_in_token: now.useSignInToken, signed_in: now.signedIn, user_id_matches: now.userId === userId };
      const [requestStatus, answer] = await attempt(() => client.request('GET', s.get('user_path')));
      out.request = { status: requestStatus, http_status: answer && answer.status };
      const [signOutStatus] = await attempt(() => client.signOut());
      now = client.status();
      out.sign_out = { status: signOutStatus, use_api_key: now.useApiKey, signed_in: now.signedIn };
      return out;
    });
  },

  async status_errors(s) {
    // The binding's own mapping from a status code to its JumpError subclass (what libjump's failures become).
    // A code without a subclass of its own (the base JumpError) is reported by class name: a gap in the table.
    return {
      names: s.input.statuses.map(({ code }) => {
        const error = jump.errorFromDetail(code, {});
        return error.constructor === jump.JumpError ? 'JumpError' : error.statusName;
      }),
    };
  },
};

// The generic steps (README, "Step scenarios"): a scenario whose input has "steps" is played step by step.
// Error details come camelCased (the binding's idiom): the step names their members in snake_case.
const camel = (key) => key.replace(/_([a-z0-9])/g, (_, letter) => letter.toUpperCase());

function detailFacts(step, detail) {
  const facts = {};
  const d = detail || {};
  if (step.detail) facts.detail = Object.fromEntries(step.detail.map((k) => [k, d[camel(k)] ?? null]));
  if (step.detail_keys) {
    const member = d[camel(step.detail_keys)];
    facts.detail_keys = member && typeof member === 'object' && !Array.isArray(member) ? Object.keys(member).sort() : null;
  }
  if (step.detail_paths) {
    const member = d[camel(step.detail_paths)];
    facts.detail_paths = Array.isArray(member) ? member.map((e) => e.path ?? null) : null;
  }
  return facts;
}

/** [{status, detail facts}, result]. */
async function stepStatus(step, call) {
  try {
    const result = await call();
    return [{ status: OK, ...detailFacts(step, null) }, result];
  } catch (error) {
    const status = statusOf(error);
    return [{ status, ...detailFacts(step, error.detail) }, null];
  }
}

async function playSteps(s) {
  const out = {};
  const clients = {};
  try {
    for (const raw of s.input.steps) {
      const step = s.fill(raw);
      const client = clients[step.client];
      let fact = null;
      let result;
      switch (step.do) {
        case 'open': clients[step.client] = s.client(step.config); break;
        case 'close': client.close(); delete clients[step.client]; break;
        case 'register':
          [fact] = await stepStatus(step, () => client.registerTraditional(step.user, step.password));
          fact.signed_in = client.isSignedIn;
          break;
        case 'sign_in':
          [fact] = await stepStatus(step, () => client.signIn(step.login, step.password));
          fact.signed_in = client.isSignedIn;
          break;
        case 'sign_out':
          [fact] = await stepStatus(step, () => client.signOut());
          fact.signed_in = client.isSignedIn;
          break;
        case 'sync':
          [fact, result] = await stepStatus(step, () => client.sync());
          fact.changed = result && result.changed;
          break;
        case 'fetch': [fact] = await stepStatus(step, () => client.fetchRecord()); break;
        case 'request':
          [fact, result] = await stepStatus(step, () => client.request(step.method, step.path, { headers: step.headers, body: step.body }));
          fact.http_status = result && result.status;
          break;
        case 'set': client.record.setString(step.path, step.value); break;
        case 'get': fact = client.record.getString(step.path); break;
        case 'signed_in': fact = client.isSignedIn; break;
        case 'admin': {
          const answer = await s.send(step.request);
          if (step.counter !== undefined) fact = Number((answer.counters || {})[step.counter] || 0);
          break;
        }
        default: throw new Error(`unknown step ${step.do}`);
      }
      if (step.out !== undefined) out[step.out] = fact;
    }
  } finally {
    for (const client of Object.values(clients)) client.close();
  }
  return out;
}

async function main(name) {
  let line;
  try {
    const scenario = new Scenario(name);
    const play = scenario.input.steps ? playSteps : scenarios[name];
    line = { scenario: name, outcome: await play(scenario) };
  } catch (error) {
    line = { scenario: name, error: `${error && error.name}: ${error && error.message}` };
  }
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

main(process.argv[2]);
