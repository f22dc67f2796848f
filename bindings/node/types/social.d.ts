// Social sign-in, Engage and sharing: part of the Node.js binding's types, re-exported by ../index.d.ts.
// Hand-written; keep in step with lib/*.js (test/typescript.test.js compiles them with tsc --strict).
import type { CallOptions, JsonValue } from './config';

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
