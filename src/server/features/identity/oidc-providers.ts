import 'server-only';
import type { GenericOAuthConfig } from 'better-auth/plugins';
import { jwtVerify } from 'jose';
import { env } from '@/env';

/**
 * Sign-in with LINE and Google (docs/decisions/020-sign-in-without-password.md), both as
 * OpenID Connect providers of better-auth's generic OAuth plugin, each only when configured.
 *
 * - Google: discovery, ID token verified against Google's keys, nonce bound; its
 *   `email_verified` claim is trusted.
 * - LINE Login signs a web login's ID token with HS256 and the channel secret (no JWKS), and has
 *   no `email_verified` claim: the ID token is verified here with the secret, and its e-mail
 *   counts as unverified (never linked to an existing account, confirmed by our own mail).
 *
 * Tests point both at a local provider through `OidcSettings`.
 */

export const OIDC_PROVIDER_IDS = ['line', 'google'] as const;
export type OidcProviderId = (typeof OIDC_PROVIDER_IDS)[number];

/** What the buttons say. */
export const OIDC_PROVIDER_LABELS: Record<OidcProviderId, string> = {
  line: 'LINE',
  google: 'Google',
};

export type OidcSettings = {
  line?: {
    channelId: string;
    channelSecret: string;
    /** LINE's own unless a test says otherwise. */
    issuer?: string;
    authorizationUrl?: string;
    tokenUrl?: string;
  };
  google?: { clientId: string; clientSecret: string; discoveryUrl?: string };
};

const LINE = {
  issuer: 'https://access.line.me',
  authorizationUrl: 'https://access.line.me/oauth2/v2.1/authorize',
  tokenUrl: 'https://api.line.me/oauth2/v2.1/token',
};
const GOOGLE_DISCOVERY = 'https://accounts.google.com/.well-known/openid-configuration';

/** The providers the environment configures (src/env.ts checks each pair is whole). */
export function oidcSettingsFromEnv(): OidcSettings {
  const { LINE_CHANNEL_ID, LINE_CHANNEL_SECRET, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } = env();
  return {
    ...(LINE_CHANNEL_ID && LINE_CHANNEL_SECRET
      ? { line: { channelId: LINE_CHANNEL_ID, channelSecret: LINE_CHANNEL_SECRET } }
      : {}),
    ...(GOOGLE_CLIENT_ID && GOOGLE_CLIENT_SECRET
      ? { google: { clientId: GOOGLE_CLIENT_ID, clientSecret: GOOGLE_CLIENT_SECRET } }
      : {}),
  };
}

/** The configured providers, in the order /login shows them. */
export function configuredProviders(settings: OidcSettings = oidcSettingsFromEnv()) {
  return OIDC_PROVIDER_IDS.filter((id) => settings[id] !== undefined);
}

export function isOidcProviderId(value: unknown): value is OidcProviderId {
  return (OIDC_PROVIDER_IDS as readonly unknown[]).includes(value);
}

/** The claims a LINE ID token carries that we use. */
type LineClaims = { sub: string; name?: string; picture?: string; email?: string };

function lineConfig(line: NonNullable<OidcSettings['line']>): GenericOAuthConfig {
  const issuer = line.issuer ?? LINE.issuer;
  const secret = new TextEncoder().encode(line.channelSecret);
  return {
    providerId: 'line',
    clientId: line.channelId,
    clientSecret: line.channelSecret,
    authorizationUrl: line.authorizationUrl ?? LINE.authorizationUrl,
    tokenUrl: line.tokenUrl ?? LINE.tokenUrl,
    scopes: ['openid', 'profile', 'email'],
    pkce: true,
    // The token endpoint answered the ID token itself over TLS; its signature is checked anyway.
    getUserInfo: async (tokens) => {
      if (!tokens.idToken) return null;
      let claims: LineClaims;
      try {
        const verified = await jwtVerify<LineClaims>(tokens.idToken, secret, {
          issuer,
          audience: line.channelId,
          algorithms: ['HS256'],
        });
        claims = verified.payload;
      } catch {
        return null;
      }
      return {
        id: claims.sub,
        sub: claims.sub,
        name: claims.name ?? '',
        image: claims.picture,
        // Without the e-mail permission LINE sends none: better-auth then refuses the sign-in.
        email: claims.email,
        // LINE does not say the address was verified: it is ours to confirm.
        emailVerified: false,
      };
    },
  };
}

function googleConfig(google: NonNullable<OidcSettings['google']>): GenericOAuthConfig {
  return {
    providerId: 'google',
    clientId: google.clientId,
    clientSecret: google.clientSecret,
    discoveryUrl: google.discoveryUrl ?? GOOGLE_DISCOVERY,
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    // Only an ID token checked against the provider's keys (and our nonce) signs anyone in.
    requireIdTokenVerification: true,
  };
}

/** The generic OAuth plugin's configuration for the configured providers. */
export function genericOAuthConfigs(settings: OidcSettings): GenericOAuthConfig[] {
  return [
    ...(settings.line ? [lineConfig(settings.line)] : []),
    ...(settings.google ? [googleConfig(settings.google)] : []),
  ];
}
