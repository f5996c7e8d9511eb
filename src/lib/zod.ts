import { z } from 'zod';

// Validation messages in Japanese everywhere: import `z` from here, not from 'zod'.
z.config(z.locales.ja());
// In the browser zod must not test whether it may compile parsers with `Function("")`: the page's
// CSP forbids eval, and the test shows up as a violation report on every page that parses an
// object (the editor's presence answers). Compiled parsers only speed up the server.
if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
