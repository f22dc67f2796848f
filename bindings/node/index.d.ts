// Type definitions for the libjump Node.js binding (bindings/node). Hand-written; keep in step with index.js
// (test/typescript.test.js compiles test/types/example.ts against it with tsc --strict).
// Keys are camelCase where they are libjump's; record attributes, form fields, Engage profiles and Capture's
// error answer keep the server's names (README.md, "Keys").
/// <reference types="node" />
import { EventEmitter } from 'node:events';

/** jump_config keys (jump.h); unknown keys and wrong types throw InvalidArgumentError. */
export interface Config {
  captureDomain?: string;
  captureClientId?: string;
  captureLocale?: string;
  captureAppId?: string;
  captureFlowName?: string;
  captureFlowVersion?: string;
  captureFlowDomain?: string;
  captureTraditionalSignInFormName?: string;
  captureTraditionalRegistrationFormName?: string;
  captureSocialRegistrationFormName?: string;
  captureEditUserProfileFormName?: string;
  captureForgotPasswordFormName?: string;
  captureResendEmailVerificationFormName?: string;
  captureChangePasswordFormName?: string;
  captureSchemaFile?: string;
  captureEnableThinRegistration?: boolean;
  captureRedirectUri?: string;
  captureResponseType?: 'token' | 'code_and_token';
  traditionalSignInType?: 'email' | 'username';
  engageAppId?: string;
  engageDomain?: string;
  engageWhitelistedDomain?: string;
  engageResponseType?: 'token_profile' | 'token';
  engageCustomProviders?: Record<string, unknown>;
  engageTokenUrl?: string;
  engageDevice?: 'android' | 'iphone' | 'ipad';
  userAgentApp?: string;
  /** "host:port" of a jump-emulator: every endpoint goes there over plain http (unset: $JUMP_EMULATOR_HOST). */
  emulatorHost?: string;
  /** Where the session is saved (default $XDG_DATA_HOME/jump); ":memory:" keeps it in memory only. */
  storageDirectory?: string;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  tokenRefreshMarginSeconds?: number;
  maxResponseBytes?: number;
  signInTokenAuthBaseUrl?: string;
  signInTokenApiBaseUrl?: string;
  apiKeyHeader?: string;
  webLoginCookieName?: string;
}

export interface CallOptions {
  /** Aborting cancels the call (jump_request_cancel): the Promise rejects with AbortError, cause the signal's
   * reason; an already aborted signal rejects at once and starts nothing. */
  signal?: AbortSignal;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface SignInResult {
  isNew: boolean;
  uuid: string;
  authorizationCode: string | null;
  /** Paths of the same user's unsynced edits kept on top of the fresh record. */
  keptChanges?: string[];
}

/** A social sign-in's outcome with Capture configured (jump.h "Social outcomes"). */
export interface CaptureSocialResult {
  outcome: 'signed_in' | 'registered' | 'linked';
  provider: string;
  isNew: boolean;
  uuid: string;
  authorizationCode: string | null;
  /** A mergeToken identity was added to the account. */
  merged: boolean;
  /** The social identity, or null when Engage gave no profile. */
  identifier: string | null;
}

/** A social sign-in's outcome with Engage only (no captureDomain). */
export interface EngageSocialResult {
  outcome: 'authenticated';
  provider: string;
  /** The Engage token: a secret. */
  token: string | null;
  deviceToken: string | null;
  /** Engage's profile, with Engage's own keys. */
  profile: { [key: string]: JsonValue } | null;
  /** The app's token URL's answer (engageTokenUrl), or null. */
  tokenUrlResponse: {
    status: number;
    headers: Array<[string, string]>;
    cookies: Array<{ name: string; value: string; domain?: string; path?: string }>;
    body: string | null;
    /** The body when it is not UTF-8 text. */
    bodyBase64?: string;
  } | null;
}

export type SocialResult = CaptureSocialResult | EngageSocialResult;

export interface SocialSignInOptions extends CallOptions {
  /** The OAuth1 token secret (twitter). */
  tokenSecret?: string | null;
  /** From MergeRequiredError: sign in with the existing provider and merge the conflicting identity. */
  mergeToken?: string | null;
  /** Add the identity to the signed-in user. */
  link?: boolean;
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

/** The signed-in user's record: paths "/", "/aboutMe", "/primaryAddress/city", "/photos#12/value". */
export class UserRecord {
  private constructor();
  get(path?: string): JsonValue;
  set(path: string, value: JsonValue): void;
  clear(path: string): void;
  changes(): RecordChanges;
  discardChanges(): void;
}

export class Client extends EventEmitter {
  /** @throws TypeError when config is not an object; InvalidArgumentError for an unknown key or bad value. */
  constructor(config: Config);
  signIn(user: string, password: string, options?: CallOptions): Promise<SignInResult>;
  registerTraditional(attributes: { [key: string]: JsonValue }, password: string, options?: CallOptions): Promise<SignInResult>;
  /** Sign-in with a provider SDK's access token; rejects with RegistrationRequiredError or MergeRequiredError
   * when another step is needed. */
  socialSignInNative(provider: string, token: string, options?: SocialSignInOptions): Promise<SocialResult>;
  /** Two-step social registration with error.socialRegistrationToken and the (completed) preregRecord. */
  registerSocial(
    socialRegistrationToken: string,
    attributes: { [key: string]: JsonValue },
    options?: CallOptions,
  ): Promise<SignInResult>;
  /** signIn that also merges the identity of a MergeRequiredError's mergeToken (existingProvider "capture"). */
  signInMerge(user: string, password: string, mergeToken: string, options?: CallOptions): Promise<SignInResult & { merged: true }>;
  /** Exchanges a sign-in token (from the app's backend) at /v1/token for an access + refresh session. */
  signInWithToken(signInToken: string, options?: CallOptions): Promise<{ userId: string; changed: boolean; migrated?: boolean }>;
  sync(options?: CallOptions): Promise<SyncResult>;
  fetchRecord(options?: CallOptions): Promise<Record<string, never>>;
  /** Runs on libuv's thread pool: the loop keeps running during the best-effort token revoke. */
  signOut(): Promise<void>;
  state(): ClientState;
  readonly isSignedIn: boolean;
  readonly record: UserRecord;
  readonly closed: boolean;
  /** Frees the client (idempotent); pending Promises reject with CancelledError (reason "client_closed"), or
   * AbortError when their signal had aborted. */
  close(): void;
  [Symbol.dispose](): void;

  on(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
  once(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
  off(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
  addListener(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
  removeListener(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
}

/** The name of a jump_status failure: a JumpError's code. */
export type StatusName =
  | 'JUMP_E_INVALID_ARGUMENT'
  | 'JUMP_E_INVALID_HANDLE'
  | 'JUMP_E_NETWORK'
  | 'JUMP_E_TIMEOUT'
  | 'JUMP_E_SERVER'
  | 'JUMP_E_NOT_SIGNED_IN'
  | 'JUMP_E_BAD_CREDENTIALS'
  | 'JUMP_E_MERGE_REQUIRED'
  | 'JUMP_E_REGISTRATION_REQUIRED'
  | 'JUMP_E_VALIDATION'
  | 'JUMP_E_NOT_FOUND'
  | 'JUMP_E_EXPIRED'
  | 'JUMP_E_STORAGE'
  | 'JUMP_E_CANCELLED'
  | 'JUMP_E_UNSUPPORTED'
  | 'JUMP_E_BUSY'
  | 'JUMP_E_INTERNAL'
  | 'JUMP_E_CONFLICT'
  | 'JUMP_E_ALREADY_SIGNED_IN';

/** Capture's error answer, in Capture's words. */
export interface ServerAnswer {
  code?: number;
  error?: string;
  error_description?: string;
  http_status?: number;
  [key: string]: unknown;
}

/** libjump's error detail (jump_error_last() or a completion's "error") with camelCase keys. */
export interface ErrorDetail {
  status: number;
  statusName: string;
  message: string;
  reason?: string;
  server?: ServerAnswer;
  [key: string]: unknown;
}

/** A failed libjump call. `code` is the status name, for `switch (err.code)`. */
export class JumpError extends Error {
  /** detail: libjump's error detail as jump.h spells it ({status, status_name, message, ...}). */
  constructor(status: number, detail?: { [key: string]: unknown }, options?: { cause?: unknown });
  /** The negative jump_status code. */
  readonly status: number;
  /** The status name, e.g. "JUMP_E_VALIDATION" (Node's convention: err.code). */
  readonly code: StatusName;
  /** The same as code. */
  readonly statusName: StatusName | null;
  readonly detail: Partial<ErrorDetail>;
  readonly reason: string | null;
  readonly server: ServerAnswer | null;
}
export class InvalidArgumentError extends JumpError {
  readonly code: 'JUMP_E_INVALID_ARGUMENT';
}
export class InvalidHandleError extends JumpError {
  readonly code: 'JUMP_E_INVALID_HANDLE';
}
export class NetworkError extends JumpError {
  readonly code: 'JUMP_E_NETWORK';
}
export class TimeoutError extends JumpError {
  readonly code: 'JUMP_E_TIMEOUT';
}
export class ServerError extends JumpError {
  readonly code: 'JUMP_E_SERVER';
}
export class NotSignedInError extends JumpError {
  readonly code: 'JUMP_E_NOT_SIGNED_IN';
}
export class BadCredentialsError extends JumpError {
  readonly code: 'JUMP_E_BAD_CREDENTIALS';
}
export class MergeRequiredError extends JumpError {
  readonly code: 'JUMP_E_MERGE_REQUIRED';
  readonly mergeToken: string | null;
  readonly existingProvider: string | null;
  readonly conflictingProvider: string | null;
}
export class RegistrationRequiredError extends JumpError {
  readonly code: 'JUMP_E_REGISTRATION_REQUIRED';
  readonly socialRegistrationToken: string | null;
  /** Record attributes, with the schema's names. */
  readonly preregRecord: { [attribute: string]: JsonValue } | null;
  /** The form fields the prereg record maps to, with the flow's names. */
  readonly preregFields: { [field: string]: JsonValue } | null;
  readonly provider: string | null;
}
export class ValidationError extends JumpError {
  readonly code: 'JUMP_E_VALIDATION';
  /** Field or form name (the flow's) -> messages in captureLocale. */
  readonly invalidFields: { [field: string]: string[] };
}
export class NotFoundError extends JumpError {
  readonly code: 'JUMP_E_NOT_FOUND';
}
export class SessionExpiredError extends JumpError {
  readonly code: 'JUMP_E_EXPIRED';
}
export class StorageError extends JumpError {
  readonly code: 'JUMP_E_STORAGE';
}
/** libjump cancelled the call: the client was closed (reason "client_closed"), or the user cancelled on the
 * provider. An aborted signal gives AbortError instead. */
export class CancelledError extends JumpError {
  readonly code: 'JUMP_E_CANCELLED';
}
export class UnsupportedError extends JumpError {
  readonly code: 'JUMP_E_UNSUPPORTED';
}
export class BusyError extends JumpError {
  readonly code: 'JUMP_E_BUSY';
}
export class InternalError extends JumpError {
  readonly code: 'JUMP_E_INTERNAL';
}
export class ConflictError extends JumpError {
  readonly code: 'JUMP_E_CONFLICT';
  /** local, server and base are the attribute's values (the user's data). */
  readonly conflicts: Array<{ path: string; local: JsonValue; server: JsonValue; base: JsonValue }>;
}
export class AlreadySignedInError extends JumpError {
  readonly code: 'JUMP_E_ALREADY_SIGNED_IN';
}

/** A call whose AbortSignal aborted, as Node's own AbortError (fs.promises, timers/promises): not a JumpError. */
export class AbortError extends Error {
  constructor(message?: string, options?: { cause?: unknown });
  readonly name: 'AbortError';
  readonly code: 'ABORT_ERR';
}

export const STATUS_NAMES: { readonly [status: number]: string };
/** The JumpError subclass for a status; detail as jump.h spells it. */
export function errorFromDetail(status: number, detail?: { [key: string]: unknown }, options?: { cause?: unknown }): JumpError;
/** The loaded libjump's version, e.g. "0.1.0". */
export const libraryVersion: string;
