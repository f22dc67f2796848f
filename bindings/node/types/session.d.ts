// Sign-in results, credentials, requests, sync, the client's state and its events:
// part of the Node.js binding's types, re-exported by ../index.d.ts.
// Hand-written; keep in step with lib/*.js (test/typescript.test.js compiles them with tsc --strict).
import type { CallOptions } from './config';
import type { Event, SignInStatus } from './results.generated';

// The results are generated from include/jump_api.json (results.generated.d.ts): re-exported here under the names
// the binding has always used.
export type {
  SignInResult, SignInStatus, SignInTokenInfo, SignInWithTokenResult, IdentifyResult, Credentials, HttpResponse,
  SyncResult, ClientState, QuarantineEntry, RecordChanges, SyncRequest, LogLine, SavedAccounts, SavedAccount
} from './results.generated';

/** The sign-in status (sign-in tokens and API keys): the sign_in_status document. */
export type ClientStatus = SignInStatus;

/** What identify's authenticate gives: a sign-in token from the app's backend, or API-key credentials. */
export type ExternalCredential =
  | string
  | { type: 'sign_in_token'; signInToken: string }
  | { type: 'api_key'; apiKey: string; userId?: string | null; environment: string; region: string };

export interface CredentialsOptions extends CallOptions {
  /** Refresh now even when the token lasts long enough (e.g. after a 401). UnsupportedError for an API key. */
  force?: boolean;
}

export interface RequestOptions extends CallOptions {
  /** Extra headers. */
  headers?: { [name: string]: string } | null;
  /** The body: text (sent as UTF-8) or bytes. */
  body?: string | Uint8Array | null;
}

/** An event (camelCase keys: isNew, changed, status, userId); the event names are libjump's (jump.h). The index
 * signature keeps keys a newer library adds readable. */
export interface JumpEvent extends Event {
  [key: string]: unknown;
}

/** The events libjump names today (jump.h); a newer library may add more. */
export type EventName = Event['event'];
