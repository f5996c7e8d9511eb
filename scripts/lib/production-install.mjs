/**
 * A production install never compiles or builds as it starts; a development checkout builds what
 * is missing or stale, so that a fresh clone runs on `npm install && npm start` (README).
 * Production is `NODE_ENV=production`, or no typescript in node_modules: it is a development
 * package (`npm install --omit=dev` leaves it out) and `next build` needs it for this project
 * (it would try to install it itself). esbuild is no such sign: better-auth's optional
 * peers bring it into a production install. docs/decisions/013-production.md, amendment.
 * Plain JavaScript: scripts/launch.mjs asks before anything is compiled.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Why `root` is a production install, or null when it is a development checkout. */
export function productionInstallReason(root, env = process.env) {
  if (env.NODE_ENV === 'production') return 'NODE_ENV=production';
  if (!fs.existsSync(path.join(root, 'node_modules', 'typescript', 'package.json')))
    return 'no development packages: node_modules/typescript is missing';
  return null;
}

/**
 * What a production start says, on stderr, when the build it needs is missing or stale: how to
 * make one, instead of compiling on a machine that should not.
 */
export function productionRefusal(buildDir, staleReason, productionReason) {
  return [
    '',
    '起動できません (cannot start):',
    `${buildDir} のビルドがないか、ソースや設定と合いません (${staleReason})。` +
      `本番用のインストール (${productionReason}) では、起動時にビルドしません。` +
      '開発用パッケージを入れた環境 (npm install) で、起動時と同じ SITE_URL・SITE_NAME・GTM_ID を設定して npm run build を実行し、' +
      'そのビルド (dist/server と .next) を同じソースと一緒に配置してください。',
    `(The build in ${buildDir} is missing or does not match the sources and settings (${staleReason}), ` +
      `and this is a production install (${productionReason}), which never builds as it starts. ` +
      'Run `npm run build` where the development packages are installed, with the SITE_URL, SITE_NAME and GTM_ID ' +
      'this start uses, and deploy the build (dist/server and .next) with the very sources it was built from.)',
    '',
  ].join('\n');
}
