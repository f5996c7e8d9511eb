// The ambient types of next-env.d.ts, committed so that `npm run typecheck` works on a fresh
// clone before any build has generated next-env.d.ts (CSS modules, images).
/// <reference types="next" />
/// <reference types="next/image-types/global" />
