import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor wait for the real condition; on two busy cores (CI runs two test lanes
// side by side) a save's round of state updates can take longer than the default second.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  if (typeof document !== 'undefined') cleanup();
});
