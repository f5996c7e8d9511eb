/**
 * The printable invoice's and quote's data, plain (ISO strings for dates): what
 * src/components/invoice-billing renders. Made by documents.ts from the provider's objects.
 */

/** A line: the seats for a period, or a seat change's prorated charge or credit. */
export type DocumentLineView = {
  product: string;
  kind: 'period' | 'prorated' | 'credit';
  /** Seats. */
  quantity: number;
  /** Yen per seat and period, tax included; null for a prorated line. */
  unitAmount: number | null;
  /** Yen, tax included (negative for a credit). */
  amount: number;
  periodStart: string | null;
  periodEnd: string | null;
};

/** The total and tax of one rate, as rounded once per invoice and rate. */
export type TaxSummaryView = { rate: number; taxable: number; tax: number };

/** The customer's virtual account (振込先), in Zengin terms. */
export type BankAccountView = {
  bankName: string;
  bankCode: string;
  branchName: string;
  branchCode: string;
  accountType: '普通' | '当座';
  accountNumber: string;
  accountHolderName: string;
};

export type InvoiceDocumentView = {
  id: string;
  number: string;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  /** The organisation's name, printed with 御中. */
  addressee: string;
  issuedAt: string;
  dueDate: string | null;
  paidAt: string | null;
  lines: DocumentLineView[];
  taxes: TaxSummaryView[];
  total: number;
  amountDue: number;
  amountRemaining: number;
  /** Transferred so far and held toward this invoice (a transfer short of the whole amount). */
  received: number;
  bankAccount: BankAccountView | null;
};

export type QuoteView = {
  product: string;
  interval: 'month' | 'year';
  seats: number;
  unitAmount: number;
  total: number;
  taxes: TaxSummaryView[];
  issuedAt: string;
  validUntil: string;
};

/** One line of an organisation's invoice list. */
export type InvoiceListEntry = Pick<
  InvoiceDocumentView,
  'id' | 'number' | 'status' | 'total' | 'issuedAt' | 'dueDate' | 'paidAt'
>;
