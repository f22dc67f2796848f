// Type definitions for the libjump Node.js binding (bindings/node). Hand-written; keep in step with index.js
// (test/typescript.test.js compiles test/types/example.ts against it with tsc --strict). The option, result and
// error types are in types/*.d.ts, by area, and re-exported here; the results are generated from
// include/jump_api.json (types/results.generated.d.ts, make generate), which those files re-export.
// Keys are camelCase where they are libjump's; record attributes, form fields, Engage profiles and Capture's
// error answer keep the server's names (README.md, "Keys").
/// <reference types="node" />
import { EventEmitter } from 'node:events';

export * from './types/config';
export * from './types/social';
export * from './types/session';
export * from './types/errors';
import type { Config, CallOptions, JsonValue, ClientOptions } from './types/config';
import type { JumpError } from './types/errors';
import type {
  SignInResult, ClientStatus, SignInTokenInfo, SignInWithTokenResult, ExternalCredential, IdentifyResult,
  Credentials, CredentialsOptions, RequestOptions, HttpResponse, SyncResult, ClientState, RecordChanges, JumpEvent,
  EventName, LogLine, SavedAccounts
} from './types/session';
import type {
  SocialResult, SocialSignInOptions, SocialBeginOptions, SocialLoopbackOptions, SocialBegin, Providers,
  LinkedProfile, Activity, ShareResult, ShareContent
} from './types/social';

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
  /** The saved accounts (config accounts 'multiple'), the active one first, then the most recently used. */
  accounts(): SavedAccounts;
  /** Makes the saved account of uuid active, without a password; NotFoundError when none has it. */
  switchAccount(uuid: string, options?: CallOptions): Promise<Record<string, never>>;
  /** Signs that account out and erases it; the others stay signed in. NotFoundError when none has it. */
  removeAccount(uuid: string): void;
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

/** Sends libjump's log lines (one process-wide slot) to callback or a console; null stops them. */
export function setLogCallback(
  callback: ((line: LogLine) => void) | Pick<Console, 'debug' | 'info' | 'warn' | 'error'> | null,
  options?: { level?: 'debug' | 'info' | 'warning' | 'error' },
): void;
