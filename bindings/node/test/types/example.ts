// A TypeScript app's use of the package (CommonJS output), checked by test/typescript.test.js with
// tsc --noEmit --strict: index.d.ts must accept what the binding does and refuse what it does not
// (each @ts-expect-error below must meet an error, or tsc fails on the unused directive).
import {
  AbortError,
  Client,
  JumpError,
  ServerError,
  ValidationError,
  decodeSignInToken,
  effectiveConfig,
  setLogCallback,
  type ClientState,
  type Credentials,
  type ExternalCredential,
  type SignInResult,
  type SocialResult,
  type StatusName,
  type Storage,
} from 'libjump';

/** The one line the UI shows after a sign-in attempt. */
async function signIn(client: Client, email: string, password: string, signal: AbortSignal): Promise<string> {
  try {
    const result: SignInResult = await client.signIn(email, password, { signal });
    const kept: string[] = result.keptChanges ?? [];
    // @ts-expect-error results have camelCase keys: is_new is isNew
    void result.is_new;
    return `${result.isNew ? 'welcome' : 'welcome back'} ${result.uuid} (${kept.length} edits kept)`;
  } catch (err) {
    if (err instanceof AbortError) {
      const code: 'ABORT_ERR' = err.code;
      return `${code}: ${String(err.cause)}`;
    }
    if (err instanceof ValidationError) return Object.keys(err.invalidFields).join(', ');
    if (!(err instanceof JumpError)) throw err;
    switch (err.code) {
      case 'JUMP_E_BAD_CREDENTIALS':
        return 'wrong email or password';
      case 'JUMP_E_NETWORK':
      case 'JUMP_E_TIMEOUT':
        return 'offline';
      // @ts-expect-error a misspelt status name is a compile error, not a case that never matches
      case 'JUMP_E_BAD_CREDENTIAL':
        return 'never';
      default: {
        const name: StatusName = err.code;
        const status: number = err.status;
        return `${name} (${status}, ${err.statusName ?? '?'})`;
      }
    }
  }
}

function describeSocial(result: SocialResult): string {
  if (result.outcome === 'authenticated') return `engage token for ${result.provider}: ${result.deviceToken ?? 'no device token'}`;
  return `${result.outcome} ${result.uuid} via ${result.provider}${result.merged ? ' (merged)' : ''}`;
}

async function main(url: string): Promise<void> {
  const client = new Client({ captureDomain: url, captureClientId: 'id', storageDirectory: ':memory:' });
  client.on('signed_in', (event) => console.log(event.event, event.uuid));

  const controller = new AbortController();
  console.log(await signIn(client, 'ada@example.com', 'secret', controller.signal));
  console.log(await signIn(client, 'ada@example.com', 'secret', AbortSignal.timeout(5000)));

  const state: ClientState = client.state();
  if (state.signedIn && state.unsyncedChanges) {
    const [request] = client.record.changes().requests;
    console.log(request?.endpoint, request?.attributeName);
    const synced = await client.sync({ signal: controller.signal });
    console.log(synced.changed, synced.renamed);
  }
  const storage = state.storageError;
  if (storage !== null) console.log(storage.statusName, storage.message);
  const token = await client.signInWithToken('token');
  console.log(token.userId, token.changed);
  console.log(describeSocial(await client.socialSignInNative('google', 'token', { link: false, signal: controller.signal })));
  client.record.set('/profiles#1/profile', { favorite_color: 'teal' });
  await client.signOut();
  client.close();
}

/** A store for the session: synchronous functions of strings and bytes. */
class MapStorage implements Storage {
  readonly data = new Map<string, Buffer>();
  load(key: string): Buffer | null {
    return this.data.get(key) ?? null;
  }
  save(key: string, data: Buffer): void {
    this.data.set(key, data);
  }
  erase(key: string): void {
    this.data.delete(key);
  }
}

/** Sign-in tokens, identify, credentials and authorized requests, as a backend-issued session uses them. */
async function tokenSession(url: string, backend: (externalUserId: string) => Promise<string>): Promise<void> {
  const client = new Client({ signInTokenAuthBaseUrl: url, storageDirectory: ':memory:' }, { storage: new MapStorage() });
  // @ts-expect-error a storage has load, save and erase
  void new Client({}, { storage: { load: () => null } });
  const authenticate = async (externalUserId: string, { signal }: { signal: AbortSignal }): Promise<ExternalCredential> =>
    signal.aborted ? { type: 'api_key', apiKey: 'key', userId: null, environment: 'dev', region: 'us' } : backend(externalUserId);
  const identified = await client.identifyExternalUser('app-user-7', authenticate, { signal: AbortSignal.timeout(10000) });
  console.log(identified.action, identified.userId);
  // @ts-expect-error the answer's keys are camelCase: sign_in_token is signInToken
  void client.identifyExternalUser('x', () => ({ type: 'sign_in_token', sign_in_token: 't' }));
  const status = client.status();
  if (status.signedIn && status.useSignInToken) console.log(status.userId, status.externalUserId);
  const credentials: Credentials = await client.credentials(60, { force: false });
  console.log(credentials.kind, credentials.expiresIn ?? 'unknown');
  // @ts-expect-error credentials have camelCase keys: access_token is accessToken
  void credentials.access_token;
  if (!client.hasValidCredentials(30)) await client.refreshAccessToken();
  const response = await client.request('PUT', '/v2/user/me/profile', {
    headers: { 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify({ colour: 'blue' })),
  });
  console.log(response.status, response.headers.length, response.body ?? response.bodyBase64);
  const info = decodeSignInToken(await backend('app-user-7'));
  console.log(info.userId, info.environment, info.expiresAt);
  console.log(effectiveConfig({ storageDirectory: ':memory:' }).requestTimeoutMs);
  client.close();
}

/** Social sign-in in a browser (loopback), linking, sharing, and the record's plurals. */
async function social(client: Client, openBrowser: (url: string) => void): Promise<void> {
  setLogCallback(console, { level: 'warning' });
  setLogCallback((line) => console.log(line.level, line.message));
  // @ts-expect-error libjump's levels are debug, info, warning and error
  setLogCallback(console, { level: 'verbose' });
  const providers = await client.providers();
  const name = providers.signIn.find((p) => !p.requiresInput)?.name ?? 'facebook';
  const outcome: SocialResult = await client.socialSignInLoopback(name, openBrowser, { timeoutMs: 120000, forceReauth: true });
  // @ts-expect-error the loopback has no redirectUri: the listener is where the browser comes back
  void client.socialSignInLoopback(name, openBrowser, { redirectUri: 'https://example.com/' });
  if (outcome.outcome !== 'authenticated') console.log(outcome.uuid);
  const begun = await client.socialBegin('google', { link: true });
  console.log(begun.url, begun.completionPrefix);
  for (const profile of client.linkedProfiles()) console.log(profile.provider, profile.displayName);
  try {
    const shared = await client.share({ action: 'reads', url: 'https://example.com/', user_generated_content: 'Hi' }, [name]);
    console.log(Object.keys(shared.results));
  } catch (err) {
    if (!(err instanceof ServerError)) throw err;
    for (const [provider, result] of Object.entries(err.results ?? {})) {
      if (!result.ok) console.log(provider, result.errorClass, result.message);
    }
  }
  const record = client.record;
  const path: string = record.append('/photos', { value: 'me.png' });
  const count: number = record.elementCount('/photos');
  const paths: string[] = record.elementPaths('/photos');
  record.replacePlural('/statuses', [{ status: 'hello' }]);
  record.remove(paths[0] ?? path);
  record.revert('/photos');
  const age: number = record.getInt('/age');
  const name2: string | null = record.getString('/givenName');
  console.log(count, age, name2, record.getBoolean('/optIn'), record.getNumber('/score'));
  // @ts-expect-error append takes one element, not a list
  record.append('/photos', [{ value: 'a.png' }]);
}

void tokenSession;
void social;

main(process.env.JUMP_EMULATOR_URL ?? 'http://127.0.0.1:8080').catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
