'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { announceLoginChange } from './auth-state.client';

/**
 * Sign-out: a form posting to /api/account/sign-out (works without JavaScript); with it, a
 * fetch, the other tabs told, then a full load of the home page.
 */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <form
      method="post"
      action="/api/account/sign-out"
      onSubmit={(event) => {
        event.preventDefault();
        setPending(true);
        void fetch('/api/account/sign-out', {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: '{}',
        })
          .then(() => {
            announceLoginChange();
            window.location.assign('/');
          })
          .catch(() => setPending(false));
      }}
    >
      <Button type="submit" color="white" fullWidth height={44} loading={pending}>
        ログアウト
      </Button>
    </form>
  );
}
