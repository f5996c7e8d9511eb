import type { Page } from '@playwright/test';

/** A document the site answered in the page's main frame, with its policy. */
export type PolicedAnswer = { url: string; status: number; policy: string | undefined };

export type CspWatch = {
  /** Every violation the browser reported on the site's own documents. */
  violations: string[];
  /** The site's document answers so far (redirects included), with their policies. */
  answers: () => Promise<PolicedAnswer[]>;
};

/**
 * Records the Content-Security-Policy violations of a page, two ways: the console message
 * Chromium writes for each ("Refused to … Content Security Policy …") and the
 * `securitypolicyviolation` event, reported by a listener added before any of the page's own
 * scripts run. A third-party frame (a video player) reports its own policy's violations, which
 * are not ours: only documents of `origin` count. Call before the first navigation.
 */
export async function watchCsp(page: Page, origin: string): Promise<CspWatch> {
  const violations: string[] = [];
  const answers: Promise<PolicedAnswer>[] = [];
  page.on('console', (message) => {
    const where = message.location().url;
    if (message.text().includes('Content Security Policy') && (!where || where.startsWith(origin)))
      violations.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    const request = response.request();
    if (request.resourceType() !== 'document' || request.frame() !== page.mainFrame()) return;
    if (!response.url().startsWith(origin)) return;
    // allHeaders(): headers() leaves out some security-related headers.
    answers.push(
      response.allHeaders().then((headers) => ({
        url: response.url(),
        status: response.status(),
        policy: headers['content-security-policy'],
      })),
    );
  });
  await page.exposeFunction('__reportCspViolation', (text: string) => {
    violations.push(text);
  });
  await page.addInitScript((ours: string) => {
    if (location.origin !== ours) return;
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (t: string) => Promise<void> })
        .__reportCspViolation;
      void report(
        `${location.pathname}: ${event.effectiveDirective} refused ${event.blockedURI || 'inline'}` +
          ` (${event.sourceFile}:${event.lineNumber}) ${event.sample}`,
      );
    });
  }, origin);
  return { violations, answers: () => Promise.all(answers) };
}

/** The sources scripts may come from under a policy (script-src, else default-src). */
export function scriptSources(policy: string): string[] {
  const directives = new Map(
    policy.split(';').map((d) => {
      const [name = '', ...sources] = d.trim().split(/\s+/);
      return [name.toLowerCase(), sources] as const;
    }),
  );
  return directives.get('script-src') ?? directives.get('default-src') ?? [];
}
