import adminStyles from '@/components/admin/admin.module.css';
import styles from '@/components/admin/users/users.module.css';
import own from './transfer.module.css';
import { PHASE_LABELS, type TransferStatus, isRunning, progressShare } from '@/lib/transfer/status';
import { TableHead } from '@/components/ui/table-head';

type Props = {
  status: TransferStatus;
  /** Endpoint → its label (記事, 特集, …), in the content model's order. */
  endpointLabels: Record<string, string>;
};

const KIND_LABELS: Record<TransferStatus['kind'], string> = {
  archive: 'アーカイブから取り込み',
  microcms: 'microCMS から取り込み',
};

const time = (iso: string) =>
  new Intl.DateTimeFormat('ja-JP', {
    timeZone: 'Asia/Tokyo',
    dateStyle: 'medium',
    timeStyle: 'medium',
  }).format(new Date(iso));

/**
 * The current or last import: a progress bar while it runs, then what came in per endpoint,
 * or why nothing did. Rendered by the page (no JavaScript needed) and again by the poller.
 */
export function TransferStatusPanel({ status, endpointLabels }: Props) {
  const running = isRunning(status);
  const percent = Math.round(progressShare(status) * 100);
  const label = (endpoint: string) => endpointLabels[endpoint] ?? endpoint;
  const rows = status.result
    ? Object.keys(endpointLabels)
        .filter((e) => status.result!.contents[e])
        .map((e) => [e, status.result!.contents[e]!] as const)
    : [];
  const total = rows.reduce((sum, [, n]) => sum + n, 0);

  return (
    <section
      className={styles.section}
      aria-labelledby="transfer-status-title"
      id="transfer-status"
    >
      <h2 id="transfer-status-title" className={styles.sectionTitle}>
        {running ? '取り込みの進み具合' : '前回の取り込み'}
      </h2>
      <p className={styles.hint}>
        {KIND_LABELS[status.kind]}（{status.source}）・{time(status.startedAt)} 開始
        {status.finishedAt ? `・${time(status.finishedAt)} 終了` : ''}
      </p>

      {running ? (
        <>
          <label htmlFor="transfer-progress" className={own.progressLabel}>
            {PHASE_LABELS[status.phase]}
            {status.endpoint ? `（${label(status.endpoint)}）` : ''}：{percent}%
          </label>
          <progress id="transfer-progress" className={own.progress} max={100} value={percent}>
            {percent}%
          </progress>
          <p className={own.counts} role="status">
            コンテンツ {status.items.done} / {status.items.total} 件・メディア {status.media.done} /{' '}
            {status.media.total} 件{status.warnings > 0 ? `・注意 ${status.warnings} 件` : ''}
          </p>
          <p className={styles.hint}>
            このページを閉じても取り込みは続きます。数秒ごとに表示を更新します。
          </p>
        </>
      ) : status.phase === 'done' ? (
        <>
          <p className={styles.notice} role="status">
            取り込みが完了しました。コンテンツ {total} 件・メディア {status.result?.media ?? 0}{' '}
            件を取り込みました。
          </p>
          <div className={adminStyles.tableWrap}>
            <table className={adminStyles.table}>
              <caption className={styles.hint}>エンドポイントごとの件数</caption>
              <TableHead columns={['エンドポイント', { label: '件数', className: own.number }]} />
              <tbody>
                {rows.map(([endpoint, n]) => (
                  <tr key={endpoint}>
                    <th scope="row">
                      {label(endpoint)} <span className={styles.muted}>({endpoint})</span>
                    </th>
                    <td className={own.number}>{n}</td>
                  </tr>
                ))}
                {status.result?.versions ? (
                  <tr>
                    <th scope="row">版の履歴</th>
                    <td className={own.number}>{status.result.versions}</td>
                  </tr>
                ) : null}
                <tr>
                  <th scope="row">メディア</th>
                  <td className={own.number}>{status.result?.media ?? 0}</td>
                </tr>
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <div className={styles.alert} role="alert">
          <p className={own.message}>取り込めませんでした。何も取り込んでいません。</p>
          <p className={own.message}>{status.error}</p>
        </div>
      )}

      {status.warningList.length > 0 ? (
        <details>
          <summary>注意 {status.warningList.length} 件（取り込みは完了しています）</summary>
          <ul className={own.warnings}>
            {status.warningList.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
