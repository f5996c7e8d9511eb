import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/env';
import { startRefusal } from '@/server/features/billing/start-check';
import { DEMO_OPERATOR, operatorName, operatorOf, operatorStartRefusal } from './operator';

const SERVER = { DATABASE_URL: 'postgres://app@db.internal:5432/site' };
const OPERATOR = {
  OPERATOR_NAME: '株式会社アクシス',
  OPERATOR_REPRESENTATIVE: '山田 花子',
  OPERATOR_ADDRESS: '〒106-0032 東京都港区六本木5-17-1',
  OPERATOR_PHONE: '03-1234-5678',
  OPERATOR_EMAIL: 'support@axis.example.jp',
};

describe('operatorStartRefusal', () => {
  it('lets the embedded database start without any operator setting', () => {
    expect(operatorStartRefusal(parseEnv({}))).toBeNull();
  });

  it('refuses a server database without them, naming each missing variable in both languages', () => {
    const refusal = operatorStartRefusal(
      parseEnv({ ...SERVER, OPERATOR_NAME: '株式会社アクシス' }),
    );
    expect(refusal).toContain('起動を止めました');
    expect(refusal).toContain(
      'set OPERATOR_REPRESENTATIVE, OPERATOR_EMAIL, OPERATOR_ADDRESS, OPERATOR_PHONE;',
    );
    expect(refusal).not.toMatch(/OPERATOR_NAME[,;)]/);
  });

  it('starts a server database with every setting', () => {
    expect(operatorStartRefusal(parseEnv({ ...SERVER, ...OPERATOR }))).toBeNull();
  });

  it('lets address and phone be disclosed on request, never the seller’s name', () => {
    const { OPERATOR_ADDRESS: _a, OPERATOR_PHONE: _p, ...rest } = OPERATOR;
    const onRequest = { ...SERVER, ...rest, OPERATOR_DISCLOSE_ON_REQUEST: 'true' };
    expect(operatorStartRefusal(parseEnv(onRequest))).toBeNull();
    const { OPERATOR_NAME: _n, ...nameless } = onRequest;
    expect(operatorStartRefusal(parseEnv(nameless))).toContain('(OPERATOR_NAME)');
  });
});

describe('operatorName (the line beside comments)', () => {
  it('is the configured name, the demo one on the embedded database, else none (never a throw)', () => {
    expect(operatorName({ OPERATOR_NAME: '株式会社アクシス' } as never)).toBe('株式会社アクシス');
    expect(operatorName({} as never)).toBe(DEMO_OPERATOR.name);
    expect(operatorName({ DATABASE_URL: 'postgres://db/axis' } as never)).toBeNull();
  });
});

describe('operatorOf', () => {
  it('shows the settings as given', () => {
    expect(operatorOf(parseEnv({ ...SERVER, ...OPERATOR }))).toEqual({
      name: '株式会社アクシス',
      representative: '山田 花子',
      address: '〒106-0032 東京都港区六本木5-17-1',
      phone: '03-1234-5678',
      email: 'support@axis.example.jp',
      demo: false,
    });
  });

  it('fills the embedded database’s unset values with demo values, and says so', () => {
    expect(operatorOf(parseEnv({}))).toEqual({ ...DEMO_OPERATOR, demo: true });
    const partly = operatorOf(parseEnv({ OPERATOR_NAME: '株式会社アクシス' }));
    expect(partly).toMatchObject({
      name: '株式会社アクシス',
      email: DEMO_OPERATOR.email,
      demo: true,
    });
    expect(operatorOf(parseEnv(OPERATOR)).demo).toBe(false);
  });

  it('leaves address and phone to a request when the operator chose that', () => {
    const operator = operatorOf(
      parseEnv({
        ...SERVER,
        ...OPERATOR,
        OPERATOR_ADDRESS: '',
        OPERATOR_PHONE: '',
        OPERATOR_DISCLOSE_ON_REQUEST: 'true',
      }),
    );
    expect(operator).toMatchObject({ address: null, phone: null, demo: false });
  });

  it('never guesses on a server database the start check would have refused', () => {
    expect(() => operatorOf(parseEnv(SERVER))).toThrow(/OPERATOR_NAME/);
  });
});

describe('startRefusal (npm start and the boot)', () => {
  it('names billing and the operator in one message, and lets a complete production start', () => {
    const both = startRefusal(parseEnv(SERVER));
    expect(both).toContain('STRIPE_SECRET_KEY がありません');
    expect(both).toContain('運営者の情報');
    const sandbox = { ...SERVER, BILLING_SANDBOX: 'true' };
    expect(startRefusal(parseEnv(sandbox))).not.toContain('STRIPE_SECRET_KEY');
    expect(startRefusal(parseEnv({ ...sandbox, ...OPERATOR }))).toBeNull();
  });
});
