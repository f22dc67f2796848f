// The Client's configuration, call options and app storage:
// part of the Node.js binding's types, re-exported by ../index.d.ts.
// Hand-written; keep in step with lib/*.js (test/typescript.test.js compiles them with tsc --strict).
/// <reference types="node" />

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
  /** How long one HTTP attempt may take (and, without operationTimeoutMs, a request's retries together). */
  requestTimeoutMs?: number;
  /** The deadline of a whole call, which every wait inside it draws on; 0 (default): none. A call that
   * reaches it rejects with a TimeoutError whose detail.reason is 'operation_timeout'. */
  operationTimeoutMs?: number;
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
  /** 'multiple': a sign-in of another user adds a saved account and makes it active, the others stay signed in
   * (accounts(), switchAccount(), removeAccount()); 'single' (default): one user, as always. */
  accounts?: 'single' | 'multiple';
}

export interface CallOptions {
  /** Aborting cancels the call (jump_request_cancel): the Promise rejects with AbortError, cause the signal's
   * reason; an already aborted signal rejects at once and starts nothing. */
  signal?: AbortSignal;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };


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
