import { z } from 'zod';

// Validation messages in Japanese everywhere: import `z` from here, not from 'zod'.
z.config(z.locales.ja());

export { z };
