import { Link } from '@/components/layout/site-link';

/**
 * The seller's rows of a receipt's or an invoice's details (インボイス: who issues it, where,
 * and the registration number when the document is a qualified one). Rendered inside the
 * document's own `<dl>`.
 */
export function IssuerRows({
  issuer,
  registrationNumber,
}: {
  issuer: { name: string; address: string | null };
  /** Shown only when the document is a 適格請求書 / 適格簡易請求書. */
  registrationNumber: string | null;
}) {
  return (
    <>
      <div>
        <dt>発行者</dt>
        <dd>{issuer.name}</dd>
      </div>
      <div>
        <dt>所在地</dt>
        <dd>
          {issuer.address ?? (
            <>
              ご請求に応じて開示します（
              <Link href="/specified-commercial-transactions">特定商取引法に基づく表記</Link>）
            </>
          )}
        </dd>
      </div>
      {registrationNumber ? (
        <div>
          <dt>登録番号</dt>
          <dd>{registrationNumber}</dd>
        </div>
      ) : null}
    </>
  );
}
