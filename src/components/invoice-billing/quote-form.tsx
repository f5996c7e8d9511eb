import { Button } from '@/components/ui/button';
import sheet from '@/components/billing/receipt.module.css';
import { QUOTE_MAX_SEATS } from './quote-query';

/** The quote's GET form: seats and 宛名 (nothing is stored; the page prints what it is given). */
export function QuoteForm({
  priceId,
  seats,
  addressee,
  error,
}: {
  priceId: string;
  seats: string;
  addressee: string;
  error: string | null;
}) {
  return (
    <form method="get" className={sheet.addresseeForm} aria-labelledby="quote-form-title">
      <h2 id="quote-form-title" className={sheet.formTitle}>
        見積書を作成する
      </h2>
      <input type="hidden" name="price" value={priceId} />
      <div className={sheet.formRow}>
        <label className={sheet.formField}>
          <span>宛名（貴社名）</span>
          <input
            className={sheet.formControl}
            name="addressee"
            defaultValue={addressee}
            maxLength={60}
            autoComplete="organization"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'quote-error' : undefined}
          />
        </label>
        <label className={sheet.formField}>
          <span>席数</span>
          <input
            className={sheet.formControl}
            name="seats"
            type="number"
            inputMode="numeric"
            min={1}
            max={QUOTE_MAX_SEATS}
            defaultValue={seats}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'quote-error' : undefined}
          />
        </label>
        <Button type="submit" color="white">
          見積書を表示
        </Button>
      </div>
      {error ? (
        <p id="quote-error" role="alert" className={sheet.formError}>
          {error}
        </p>
      ) : null}
    </form>
  );
}
