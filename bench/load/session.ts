/**
 * What the fixture (which signs members in and probes navigations) and the mix (which replays
 * them) share: their own module, so that the two do not import each other.
 */

/**
 * The members' cookies as their browsers hold them: the session and the audience cookie, which
 * lasts 60 s and which the caller renews (a browser takes the fresh one from Set-Cookie).
 */
export type CookieJar = { free: string; paid: string };
export type Member = keyof CookieJar;

/** A client-side navigation as the router requests it, by an anonymous visitor or a member. */
export type Navigation = { path: string; headers: Record<string, string>; member: Member | null };
