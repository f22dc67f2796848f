// Sign-in results, credentials, requests, sync, the client's state and its events:
// part of the Node.js binding's types, re-exported by ../index.d.ts.
// Hand-written; keep in step with lib/*.js (test/typescript.test.js compiles them with tsc --strict).
import type { CallOptions, JsonValue } from './config';
import type { ErrorDetail } from './errors';

export interface SignInResult {
  isNew: boolean;
  uuid: string;
  authorizationCode: string | null;
  /** Paths of the same user's unsynced edits kept on top of the fresh record. */
  keptChanges?: string[];
}

/** The sign-in status (sign-in tokens and API keys). */
export interface ClientStatus {
  configured: boolean;
  signedIn: boolean;
  useApiKey: boolean;
  useSignInToken: boolean;
  pendingReauthentication: boolean;
  userId: string | null;
  teamId: string | null;
  environment: string | null;
  region: string | null;
  externalUserId: string | null;
  /** The saved credential could not be read: the status comes from the secret-free gist. */
  restoreError: ErrorDetail | null;
}

/** What a sign-in token says (decodeSignInToken). */
export interface SignInTokenInfo {
  userId: string;
  teamId: string | null;
  environment: string;
  region: string;
  /** Epoch seconds. */
  expiresAt: number | null;
}

export interface SignInWithTokenResult {
  userId: string;
  changed: boolean;
  migrated?: boolean;
}

/** What identify's authenticate gives: a sign-in token from the app's backend, or API-key credentials. */
export type ExternalCredential =
  | string
  | { type: 'sign_in_token'; signInToken: string }
  | { type: 'api_key'; apiKey: string; userId?: string | null; environment: string; region: string };

export interface IdentifyResult {
  action: 'none' | 'kept' | 'reauthenticated' | 'signed_in' | 'switched';
  userId: string | null;
}

/** The credential request() would send. */
export interface Credentials {
  kind: 'capture' | 'sign_in_token' | 'api_key';
  /** A secret: the bearer token, or in API-key mode the API key. */
  accessToken: string;
  /** Epoch seconds by the local clock; null when unknown (and for an API key). */
  expiresAt: number | null;
  /** Seconds left when the call returned; null when unknown. */
  expiresIn: number | null;
  /** The call (or a refresh it joined) replaced the token. */
  refreshed: boolean;
}

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

/** request()'s answer: any HTTP status (an error status is not a rejection). */
export interface HttpResponse {
  status: number;
  headers: Array<[string, string]>;
  /** null when the body is not UTF-8: bodyBase64 holds it then. */
  body: string | null;
  bodyBase64?: string;
}

export interface SyncResult {
  changed: string[];
  requests: number;
  /** Element paths whose id the server assigned, e.g. {"/photos#-1": "/photos#57"}. */
  renamed: Record<string, string>;
}

export interface ClientState {
  signedIn: boolean;
  uuid: string | null;
  email: string | null;
  reauthenticationRequired: boolean;
  /** Epoch seconds by the local clock, or null when the server gave no lifetime. */
  accessTokenExpiresAt: number | null;
  unsyncedChanges: boolean;
  /** The saved session could not be read. */
  restoreError: ErrorDetail | null;
  /** The last save or erase failed. */
  storageError: ErrorDetail | null;
  flowVersion: string | null;
  /** Where the secrets are kept (the secretStore key). */
  secretStore: 'secret-service' | 'file' | 'host' | 'memory';
  /** Capture's clock minus this device's, in seconds (from its answers' Date header; kept with the session). */
  clockOffsetSeconds: number;
  /** Sessions set aside. */
  quarantine: Array<{
    entry: string;
    reason: 'unreadable' | 'replaced';
    uuid: string | null;
    unsyncedChanges: boolean;
    quarantinedAt: number;
    message: string;
  }>;
}

/** Exactly what client.sync() would send now. */
export interface RecordChanges {
  changed: string[];
  /** Record attributes of the root entity.update, with the schema's names. */
  update: { [attribute: string]: JsonValue };
  requests: Array<{
    endpoint: 'entity.update' | 'entity.replace' | 'entity.delete';
    /** The path of the object or plural element written, null for the root. */
    attributeName: string | null;
    /** Record attributes, with the schema's names. */
    attributes?: JsonValue;
  }>;
}

/** An event: {version: 1, kind: 'event', event, uuid} plus event-specific fields (camelCase keys: isNew,
 * changed, status, userId). The event names are libjump's (jump.h). */
export interface JumpEvent {
  version: number;
  kind: 'event';
  event: EventName | string;
  uuid?: string;
  [key: string]: unknown;
}

export type EventName =
  | 'signed_in'
  | 'signed_out'
  | 'token_refreshed'
  | 'record_synced'
  | 'record_fetched'
  | 'session_expired'
  | 'status_changed'
  | 'user_invalidated';
