/**
 * The operator's details for a test file that renders them (a letter's footer, the 特定商取引法
 * page). On a server database they are required, as they are for a production start
 * (src/server/features/operator/operator.ts); on the embedded one demo values would stand in. The
 * environment is put back before the next file (tests/support/fresh-file-state.ts).
 */
export function setTestOperator(): void {
  Object.assign(process.env, {
    OPERATOR_NAME: 'テスト出版株式会社',
    OPERATOR_REPRESENTATIVE: '代表 太郎',
    OPERATOR_EMAIL: 'contact@example.jp',
    OPERATOR_DISCLOSE_ON_REQUEST: 'true',
  });
}
