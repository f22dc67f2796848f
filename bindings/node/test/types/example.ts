// A TypeScript app's use of the package (CommonJS output), checked by test/typescript.test.js with
// tsc --noEmit --strict: index.d.ts must accept what the binding does and refuse what it does not
// (each @ts-expect-error below must meet an error, or tsc fails on the unused directive).
import {
  AbortError,
  Client,
  JumpError,
  ValidationError,
  type ClientState,
  type SignInResult,
  type SocialResult,
  type StatusName,
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

main(process.env.JUMP_EMULATOR_URL ?? 'http://127.0.0.1:8080').catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
