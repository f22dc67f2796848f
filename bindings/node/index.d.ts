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
  /** Where storageDirectory's secrets go: the Secret Service when it answers ('auto'), it or a StorageError
   * ('secret-service'), or files ('file'). */
  secretStore?: 'auto' | 'secret-service' | 'file';
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  tokenRefreshMarginSeconds?: number;
  maxResponseBytes?: number;
  /** Retries of a read or of the token refresh after a transient failure (429, 5xx, reset); 0: none (default 2). */
  maxRetries?: number;
  /** Unset: the environment's http_proxy/https_proxy/no_proxy; '': no proxy; a URL: every request through it. */
  proxy?: string;
  /** A PEM file of CA certificates trusted in addition to the system's roots. */
  caFile?: string;
  /** 'sha256//<base64>' hashes of the server's SubjectPublicKeyInfo; a mismatch is a NetworkError (reason pin_mismatch). */
  pinnedPublicKeys?: string[];
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

/** What a social call takes besides its signal (jump.h "jump_client_social_begin"). */
export interface SocialBeginOptions extends CallOptions {
  /** The user's text, for providers with requiresInput (an OpenID URL). */
  input?: string | null;
  forceReauth?: boolean;
  /** Add the identity to the signed-in user (outcome "linked"). */
  link?: boolean;
  /** From MergeRequiredError: sign in with the existing provider and merge the conflicting identity. */
  mergeToken?: string | null;
  /** Where the browser is sent with ?token= (a "redirect" completion). */
  redirectUri?: string | null;
}

export interface SocialLoopbackOptions extends Omit<SocialBeginOptions, 'redirectUri'> {
  /** How long to wait for the browser (default 5 minutes), then TimeoutError. */
  timeoutMs?: number;
}

/** socialBegin's answer: open url; the sign-in ends on a URL starting with completionPrefix. */
export interface SocialBegin {
  url: string;
  state: string;
  completion: 'device' | 'redirect';
  completionPrefix: string;
}

export interface Providers {
  /** The server's order, the app's custom providers (engageCustomProviders) last. */
  signIn: Array<{
    name: string;
    friendlyName: string;
    requiresInput: boolean;
    inputPrompt: string | null;
    inputLabel: string | null;
    custom: null | 'openid' | 'saml';
  }>;
  /** Sharing providers; properties are Engage's social_sharing_properties, with Engage's names. */
  sharing: Array<{ name: string; friendlyName: string; properties: { [key: string]: JsonValue } }>;
  hideTagline: boolean;
}

export interface LinkedProfile {
  identifier: string;
  domain: string | null;
  provider: string | null;
  displayName: string | null;
  email: string | null;
  /** The record path of the profile, e.g. "/profiles#3". */
  path: string;
}

/** An activity to share, in Engage's words (its keys are Engage's: user_generated_content, action_links). */
export interface Activity {
  action: string;
  url?: string;
  title?: string;
  description?: string;
  user_generated_content?: string;
  action_links?: Array<{ text: string; href: string }>;
  media?: Array<{ [key: string]: JsonValue }>;
  properties?: { [key: string]: JsonValue };
  /** shareContent: the email's subject, message_body and the URLs to shorten. */
  email?: { subject?: string; message_body?: string; urls?: string[] };
  /** shareContent: the SMS message and the URLs to shorten. */
  sms?: { message?: string; urls?: string[] };
  [key: string]: JsonValue | undefined;
}

/** One provider's outcome of a share. */
export type ShareOutcome =
  | { ok: true; method: 'activity' | 'set_status' }
  | {
      ok: false;
      errorClass:
        | 'invalid_parameter'
        | 'reauthenticate'
        | 'rate_limit'
        | 'media'
        | 'duplicate'
        | 'character_limit'
        | 'provider'
        | 'not_signed_in'
        | 'failed';
      code?: number;
      message?: string;
    };

export interface ShareResult {
  /** Keyed by provider name, as given. */
  results: { [provider: string]: ShareOutcome };
}

export interface ShareContent {
  /** urls: long URL -> short URL (the long one when shortening failed). */
  email: { subject: string; body: string; urls: { [url: string]: string } };
  sms: { message: string; urls: { [url: string]: string } };
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

/** The app's own store for the session, its pending edits and libjump's caches (a keychain, an encrypted
 * file, a database), in place of files in storageDirectory. Synchronous functions, run on the JS thread; they
 * must not call the Client they serve. A throw, a Promise, or (load) anything but a Uint8Array, null or
 * undefined is a StorageError for libjump (which then deletes nothing); the thrown error is that StorageError's
 * cause and goes to the log sink. */
export interface Storage {
  /** The bytes saved under key, or null/undefined when nothing is. */
  load(key: string): Uint8Array | null | undefined;
  /** Saves data under key, replacing what was there. */
  save(key: string, data: Buffer): void;
  /** Deletes key (a missing key is no error). */
  erase(key: string): void;
}

export interface ClientOptions {
  storage?: Storage;
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

/** The signed-in user's record: paths "/", "/aboutMe", "/primaryAddress/city", "/photos#12/value" (elements
 * appended here have negative ids, "/photos#-1", until a sync gives them the server's). */
export class UserRecord {
  private constructor();
  /** NotFoundError when the path does not exist. */
  get(path?: string): JsonValue;
  /** The string at path (null for a JSON null). */
  getString(path: string): string | null;
  /** The integer at path; NotFoundError for null; RangeError past Number.MAX_SAFE_INTEGER. */
  getInt(path: string): number;
  getNumber(path: string): number;
  getBoolean(path: string): boolean;
  set(path: string, value: JsonValue): void;
  /** Sets a string (null sets JSON null). */
  setString(path: string, value: string | null): void;
  clear(path: string): void;
  /** Appends an element (without "id") to a plural; its new path, e.g. "/photos#-1". */
  append(pluralPath: string, element: { [attribute: string]: JsonValue }): string;
  /** Removes a plural element ("/photos#12"). */
  remove(elementPath: string): void;
  /** Replaces every element of a plural (the elements are new: their ids are ignored). */
  replacePlural(pluralPath: string, elements: Array<{ [attribute: string]: JsonValue }>): void;
  elementCount(pluralPath: string): number;
  /** The paths of the plural's elements, in order. */
  elementPaths(pluralPath: string): string[];
  /** Drops the unsynced edits at path and below (take the server's value after a ConflictError). */
  revert(path: string): void;
  changes(): RecordChanges;
  discardChanges(): void;
}

export class Client extends EventEmitter {
  /** @throws TypeError when config is not an object; InvalidArgumentError for an unknown key or bad value. */
  constructor(config: Config, options?: ClientOptions);
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
  signInWithToken(signInToken: string, options?: CallOptions): Promise<SignInWithTokenResult>;
  /** API-key mode: requests carry apiKey in the apiKeyHeader header. */
  useApiKey(apiKey: string, options?: { userId?: string | null; environment?: string; region?: string }): void;
  status(): ClientStatus;
  /** Makes the signed-in user the app's externalUserId's; authenticate runs on the event loop, only when the
   * user differs. A throw or rejection of authenticate is the rejection. */
  identifyExternalUser(
    externalUserId: string,
    authenticate: (externalUserId: string, options: { signal: AbortSignal }) => ExternalCredential | Promise<ExternalCredential>,
    options?: CallOptions,
  ): Promise<IdentifyResult>;
  /** The credential request() would send, refreshed first only when it lasts minTtl seconds or less. */
  credentials(minTtl?: number, options?: CredentialsOptions): Promise<Credentials>;
  /** Memory only: no network, never waits for a refresh. */
  hasValidCredentials(minTtl?: number): boolean;
  /** A valid access token (a secret). */
  accessToken(options?: CallOptions): Promise<string>;
  refreshAccessToken(options?: CallOptions): Promise<void>;
  /** An authorized request with the client's credential; url relative to its server or absolute on it. */
  request(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | string, url: string, options?: RequestOptions): Promise<HttpResponse>;
  /** Takes a web login's token from its page's cookies or title for pageUrl's origin; the token (a secret). */
  useWebLogin(pageUrl: string, options?: { cookies?: string | null; title?: string | null }): string;
  sync(options?: CallOptions): Promise<SyncResult>;
  fetchRecord(options?: CallOptions): Promise<Record<string, never>>;
  loadFlow(options?: CallOptions): Promise<void>;
  /** Needs a signed-in user; then record edits are checked locally. */
  loadSchema(options?: CallOptions): Promise<void>;
  /** Through the edit-profile form: attributes (record attributes) on top of the record; then a fetch. */
  updateProfile(attributes?: { [attribute: string]: JsonValue } | null, options?: CallOptions): Promise<Record<string, never>>;
  changePassword(currentPassword: string, newPassword: string, options?: CallOptions): Promise<Record<string, never>>;
  forgotPassword(email: string, options?: CallOptions): Promise<Record<string, never>>;
  resendVerificationEmail(email: string, options?: CallOptions): Promise<Record<string, never>>;
  loadEngageConfig(options?: CallOptions): Promise<{ changed: boolean; fromCache: boolean }>;
  providers(options?: CallOptions): Promise<Providers>;
  socialBegin(provider: string, options?: SocialBeginOptions): Promise<SocialBegin>;
  /** Completes a begun sign-in with the URL the browser ended on. */
  socialComplete(url: string, options?: CallOptions): Promise<SocialResult>;
  /** Browser sign-in through a 127.0.0.1 listener; openUrl runs on the event loop, once. */
  socialSignInLoopback(
    provider: string,
    openUrl: (url: string, options: { signal: AbortSignal }) => unknown,
    options?: SocialLoopbackOptions,
  ): Promise<SocialResult>;
  linkedProfiles(): LinkedProfile[];
  unlinkAccount(identifier: string, options?: CallOptions): Promise<Record<string, never>>;
  /** Engage-only mode: where the Engage token is POSTed after each social sign-in; null removes it. */
  setTokenUrl(url: string | null): void;
  /** ServerError (err.results) when any provider failed. */
  share(activity: Activity, providers: string[], options?: CallOptions): Promise<ShareResult>;
  shareContent(activity: Activity, options?: CallOptions): Promise<ShareContent>;
  /** Memory and storage at once, then the best-effort token revoke on a thread of the addon. */
  signOut(options?: CallOptions): Promise<void>;
  state(): ClientState;
  readonly isSignedIn: boolean;
  readonly record: UserRecord;
  /** Reads the saved session and credential again (after a restoreError). */
  restore(): void;
  /** Erases the sessions set aside (state().quarantine). */
  eraseQuarantine(): void;
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
  /** The argument, config key or record path refused, when libjump names one. */
  readonly argument: string | null;
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
  /** share: each provider's outcome (the failed ones with errorClass), or null. */
  readonly results: { [provider: string]: ShareOutcome } | null;
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
/** The ABI version the addon speaks (it refuses to load a libjump of another). */
export const ABI_VERSION: number;
/** The loaded libjump's version, e.g. "0.1.0". */
export function version(): string;
/** (major << 16) | (minor << 8) | patch */
export function versionNumber(): number;
export function abiVersion(): number;
/** libjump's description of a status code. */
export function statusStr(status: number): string;
/** What a sign-in token says, without using it (no client, no network). */
export function decodeSignInToken(signInToken: string): SignInTokenInfo;
/** The settings a Client made from config would have, defaults included. */
export function effectiveConfig(config: Config): Required<{ [K in keyof Config]: Config[K] | null }>;

/** A libjump log line (redacted by libjump). */
export interface LogLine {
  version: number;
  kind: 'log';
  level: 'debug' | 'info' | 'warning' | 'error';
  message: string;
}
/** Sends libjump's log lines (one process-wide slot) to callback or a console; null stops them. */
export function setLogCallback(
  callback: ((line: LogLine) => void) | Pick<Console, 'debug' | 'info' | 'warn' | 'error'> | null,
  options?: { level?: 'debug' | 'info' | 'warning' | 'error' },
): void;
