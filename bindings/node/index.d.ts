// Type definitions for the libjump Node.js binding (bindings/node). Hand-written; keep in step with index.js.
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
  /** Aborting calls jump_request_cancel: the Promise rejects with CancelledError (cause: the abort reason). */
  signal?: AbortSignal;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface SignInResult {
  is_new: boolean;
  uuid: string;
  authorization_code: string | null;
  kept_changes?: string[];
}

/** A social sign-in's outcome (jump.h "Social outcomes", Capture configured). */
export interface SocialResult {
  outcome: 'signed_in' | 'registered' | 'linked';
  provider: string;
  is_new: boolean;
  uuid: string;
  authorization_code: string | null;
  /** A merge_token identity was added to the account. */
  merged: boolean;
  /** The social identity, or null when Engage gave no profile. */
  identifier: string | null;
  [key: string]: unknown;
}

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
  signed_in: boolean;
  uuid: string | null;
  email: string | null;
  reauthentication_required: boolean;
  access_token_expires_at: number | null;
  unsynced_changes: boolean;
  restore_error: ErrorDetail | null;
  storage_error: ErrorDetail | null;
  flow_version: string | null;
  quarantine: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

export interface RecordChanges {
  changed: string[];
  update: Record<string, JsonValue>;
  requests: Array<Record<string, unknown>>;
}

/** An event document: {"version":1,"kind":"event","event":..., "uuid":...} plus event-specific fields. */
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
  signInWithToken(signInToken: string, options?: CallOptions): Promise<{ user_id: string; changed: boolean; migrated?: boolean }>;
  sync(options?: CallOptions): Promise<SyncResult>;
  fetchRecord(options?: CallOptions): Promise<Record<string, never>>;
  /** Runs on libuv's thread pool: the loop keeps running during the best-effort token revoke. */
  signOut(): Promise<void>;
  state(): ClientState;
  readonly isSignedIn: boolean;
  readonly record: UserRecord;
  readonly closed: boolean;
  /** Frees the client (idempotent); pending Promises reject with CancelledError (reason "client_closed"). */
  close(): void;
  [Symbol.dispose](): void;

  on(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
  once(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
  off(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
  addListener(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
  removeListener(event: EventName | 'event', listener: (event: JumpEvent) => void): this;
}

/** libjump's error detail (jump_error_last() or a completion's "error"). */
export interface ErrorDetail {
  status: number;
  status_name: string;
  message: string;
  [key: string]: unknown;
}

export class JumpError extends Error {
  constructor(status: number, detail?: Partial<ErrorDetail>, options?: { cause?: unknown });
  /** The negative jump_status code. */
  readonly status: number;
  /** e.g. "JUMP_E_VALIDATION". */
  readonly statusName: string | null;
  readonly detail: Partial<ErrorDetail>;
  readonly reason: string | null;
  readonly server: { code?: number; error?: string; error_description?: string } | null;
}
export class InvalidArgumentError extends JumpError {}
export class InvalidHandleError extends JumpError {}
export class NetworkError extends JumpError {}
export class TimeoutError extends JumpError {}
export class ServerError extends JumpError {}
export class NotSignedInError extends JumpError {}
export class BadCredentialsError extends JumpError {}
export class MergeRequiredError extends JumpError {
  readonly mergeToken: string | null;
  readonly existingProvider: string | null;
  readonly conflictingProvider: string | null;
}
export class RegistrationRequiredError extends JumpError {
  readonly socialRegistrationToken: string | null;
  readonly preregRecord: Record<string, JsonValue> | null;
  /** The form fields the prereg record maps to. */
  readonly preregFields: Record<string, JsonValue> | null;
  readonly provider: string | null;
}
export class ValidationError extends JumpError {
  /** Field or form name -> messages in captureLocale. */
  readonly invalidFields: { [field: string]: string[] };
}
export class NotFoundError extends JumpError {}
export class SessionExpiredError extends JumpError {}
export class StorageError extends JumpError {}
export class CancelledError extends JumpError {
  readonly code: 'ABORT_ERR';
}
export class UnsupportedError extends JumpError {}
export class BusyError extends JumpError {}
export class InternalError extends JumpError {}
export class ConflictError extends JumpError {
  readonly conflicts: Array<{ path: string; local: JsonValue; server: JsonValue; base: JsonValue }>;
}
export class AlreadySignedInError extends JumpError {}

export const STATUS_NAMES: { readonly [status: number]: string };
export function errorFromDetail(status: number, detail?: Partial<ErrorDetail>, options?: { cause?: unknown }): JumpError;
/** The loaded libjump's version, e.g. "0.1.0". */
export const libraryVersion: string;
