// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OrganizationStanding } from './organization-standing';
import {
  InvoicesSection,
  MembersSection,
  ReportSection,
  SeatsSection,
} from './organization-screen';

const ORG = '0d8f7a3e-5b1c-4e2a-9f60-7c3b2a1d4e5f';

describe('法人プラン on the account hub', () => {
  it('tells a reader past the seats why they cannot read, in Japanese, as an alert', () => {
    render(
      <OrganizationStanding
        standing={{ organizationName: '株式会社コープ', status: 'waiting' }}
        administered={[]}
      />,
    );
    expect(screen.getByRole('alert').textContent).toMatch(
      /株式会社コープの法人プランは、契約している席がすべて使われているため/,
    );
  });

  it('links an admin to their screen, and shows nothing to a reader with no organisation', () => {
    const { container, rerender } = render(
      <OrganizationStanding standing={null} administered={[]} />,
    );
    expect(container.textContent).toBe('');
    rerender(<OrganizationStanding standing={null} administered={[{ id: ORG, name: 'A社' }]} />);
    expect(
      screen.getByRole('link', { name: 'A社の法人プランを管理する' }).getAttribute('href'),
    ).toBe('/account/organization');
  });
});

describe("the organisation admin's screen", () => {
  it('shows seats used and left, and a plain form to remove each member', () => {
    render(
      <>
        <SeatsSection seats={10} used={7} renewalSeats={null} />
        <MembersSection
          organizationId={ORG}
          members={[
            {
              userId: 'u1',
              name: '太郎',
              email: 'taro@corp.example',
              status: 'active',
              lastSeenAt: new Date('2026-11-28T03:00:00Z'),
            },
          ]}
        />
      </>,
    );
    expect(screen.getByText('残り').nextSibling?.textContent).toBe('3');
    const remove = screen.getByRole('button', { name: 'taro@corp.example を外す' });
    const form = remove.closest('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/api/organization/remove');
    expect(within(form).getByDisplayValue('u1')).toBeTruthy();
    expect(screen.getByText(/最終利用：2026年11月28日/)).toBeTruthy();
  });

  it('has an empty state for invoices and a GET form for the monthly CSV', () => {
    render(
      <>
        <InvoicesSection invoices={[]} />
        <ReportSection organizationId={ORG} months={['2026-11', '2026-10']} />
      </>,
    );
    expect(screen.getByText('まだ請求書はありません。')).toBeTruthy();
    const download = screen.getByRole('button', { name: 'CSV をダウンロード' }).closest('form')!;
    expect(download.getAttribute('method')).toBe('get');
    expect(download.getAttribute('action')).toBe('/api/organization/report');
    expect(screen.getByRole('option', { name: '2026年11月' })).toBeTruthy();
  });

  it('links each invoice to its printable page, with its due date while open, and the quote', () => {
    render(
      <InvoicesSection
        invoices={[
          {
            id: 'in_1',
            number: 'ABC-0001',
            status: 'open',
            total: 33000,
            issuedAt: '2026-11-01T00:00:00.000Z',
            dueDate: '2026-12-01T00:00:00.000Z',
            paidAt: null,
          },
        ]}
        quoteHref="/invoices/quote?price=price_1"
      />,
    );
    const link = screen.getByRole('link', { name: '請求書 ABC-0001' });
    expect(link.getAttribute('href')).toBe('/invoices/in_1');
    expect(screen.getByText(/お支払期限 2026年12月1日/)).toBeTruthy();
    expect(screen.getByRole('link', { name: /見積書/ }).getAttribute('href')).toBe(
      '/invoices/quote?price=price_1',
    );
  });
});
