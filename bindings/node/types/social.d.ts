// Social sign-in, Engage and sharing: part of the Node.js binding's types, re-exported by ../index.d.ts.
// Hand-written; keep in step with lib/*.js (test/typescript.test.js compiles them with tsc --strict).
import type { CallOptions, JsonValue } from './config';
import type { SocialOutcome, SocialProviders } from './results.generated';

// The results are generated from include/jump_api.json (results.generated.d.ts): re-exported here under the names
// the binding has always used.
export type {
  SocialOutcome, SocialBegin, SocialProviders, SignInProvider, SharingProvider, TokenUrlResponse, Cookie,
  LinkedProfile, ShareResult, ShareOutcome, ShareContent, ShareEmail, ShareSms, EngageConfigResult
} from './results.generated';

/** The providers(): the social_providers document. */
export type Providers = SocialProviders;

/** A social sign-in's outcome with Capture configured (jump.h "Social outcomes"): the social_outcome document
 * narrowed by its outcome. */
export type CaptureSocialResult = SocialOutcome & { outcome: 'signed_in' | 'registered' | 'linked' };

/** A social sign-in's outcome with Engage only (no captureDomain): token, deviceToken, profile, tokenUrlResponse. */
export type EngageSocialResult = SocialOutcome & { outcome: 'authenticated' };

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

