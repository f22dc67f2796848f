// The same package imported from an ES module (index.mjs at run time): a default import and named ones.
import jump, { AbortError, BadCredentialsError, abiVersion, statusStr, type JumpEvent } from 'libjump';

const client = new jump.Client({ captureDomain: 'http://127.0.0.1:8080', storageDirectory: ':memory:' });
client.on('event', (event: JumpEvent) => console.log(event.kind, event.event));
try {
  await client.signIn('ada@example.com', 'secret', { signal: AbortSignal.abort() });
} catch (err) {
  if (err instanceof AbortError) console.log(err.name, err.code);
  else if (err instanceof BadCredentialsError) {
    const code: 'JUMP_E_BAD_CREDENTIALS' = err.code;
    console.log(code);
  } else throw err;
} finally {
  client.close();
}
console.log(jump.libraryVersion, jump.version(), jump.versionNumber() >> 16);
if (abiVersion() !== jump.ABI_VERSION) console.log(statusStr(-7));
