import { exportedMethods, fillTemplate, formsIn } from './routes';

describe('exportedMethods', () => {
  it('finds methods exported as functions, constants and renamed re-exports', () => {
    expect(
      exportedMethods(
        'export async function POST(r) {}\nexport function GET() {}\nexport const DELETE = x;',
      ),
    ).toEqual(['DELETE', 'GET', 'POST']);
    expect(exportedMethods('export { handler as GET, handler as PATCH, helper };')).toEqual([
      'GET',
      'PATCH',
    ]);
  });

  it('ignores what is not an HTTP method', () => {
    expect(exportedMethods("export const dynamic = 'force-dynamic';")).toEqual([]);
  });
});

describe('formsIn', () => {
  it('reads static and templated actions with the field names of the file', () => {
    const source = `
      <form action="/api/contact" method="post"><input name="email" /><textarea name="message" /></form>
      <form action={\`/api/biz/axis-admin/listings/\${listing.id}/close\`}><input name="email" /></form>`;
    expect(formsIn(source)).toEqual([
      { action: '/api/contact', fields: ['email', 'message'] },
      { action: '/api/biz/axis-admin/listings/[param]/close', fields: ['email', 'message'] },
    ]);
  });
});

describe('fillTemplate', () => {
  it('fills dynamic and catch-all segments by name', () => {
    expect(
      fillTemplate('/api/admin/content/[endpoint]/[contentId]/x/[...path]', (p) => `<${p}>`),
    ).toBe('/api/admin/content/<endpoint>/<contentId>/x/<path>');
  });
});
