import { Link } from '@/components/layout/site-link';
import { RichText } from '@/components/content/rich-text';
import { ResponsiveImage } from '@/components/content/responsive-image';
import { formatDateJa, isoDateJa } from '@/lib/format';
import type { Job } from '@/server/features/content/schemas';
import { placeLabel, salaryLabel } from './job-facts';
import styles from './jobs.module.css';

/** How a reader applies: through the counting route, or (in a preview) straight to the address. */
export type ApplyLinks = {
  /** The application page, when the listing has one. */
  url: string | null;
  /** A mail to the listing's address, and the address itself to show. */
  email: { href: string; address: string } | null;
};

const Time = ({ iso }: { iso: string }) => (
  <time dateTime={isoDateJa(iso)}>{formatDateJa(iso)}</time>
);

/**
 * A job listing's page: the conditions first, the description, how to apply and the company.
 * A closed listing says so at the top and offers no way to apply.
 */
export function JobArticle({
  job,
  closed,
  apply,
}: {
  job: Job;
  closed: boolean;
  apply: ApplyLinks;
}) {
  const posted = job.publishedAt ?? job.createdAt;
  return (
    <article className={styles.article}>
      {closed ? <ClosedNotice closingDate={job.closingDate} /> : null}
      <header className={styles.articleHeader}>
        <p className={styles.kicker}>求人</p>
        <h1 className={styles.articleTitle}>{job.title}</h1>
        {job.partner ? <p className={styles.articleCompany}>{job.partner.name}</p> : null}
        {job.description ? <p className={styles.articleLead}>{job.description}</p> : null}
        <p className={styles.articleDates}>
          <span>
            掲載日 <Time iso={posted} />
          </span>
          {job.closingDate ? (
            <span>
              募集締切 <Time iso={job.closingDate} />
            </span>
          ) : null}
        </p>
      </header>

      <section className={styles.conditions} aria-labelledby="job-conditions">
        <h2 id="job-conditions" className={styles.sectionTitle}>
          募集要項
        </h2>
        <JobConditionsList job={job} />
        {closed ? null : (
          <p className={styles.toApply}>
            <a href="#job-apply">応募方法を見る</a>
          </p>
        )}
      </section>

      {job.body ? (
        <section className={styles.details} aria-label="仕事の詳細">
          <RichText html={job.body} />
        </section>
      ) : null}

      <section className={styles.apply} aria-labelledby="job-apply">
        <h2 id="job-apply" className={styles.sectionTitle}>
          応募方法
        </h2>
        {closed ? (
          <p>
            この求人の募集は終了しました。<Link href="/jobs">掲載中の求人</Link>をご覧ください。
          </p>
        ) : (
          <HowToApply apply={apply} />
        )}
      </section>

      {job.partner ? <CompanyBlock partner={job.partner} /> : null}
    </article>
  );
}

/** The notice a closed listing opens with: it stays readable, but no longer takes applications. */
export function ClosedNotice({ closingDate }: { closingDate?: string | null }) {
  return (
    <div className={styles.closed} role="note" aria-labelledby="job-closed">
      <p id="job-closed" className={styles.closedTitle}>
        この求人の募集は終了しました
      </p>
      {closingDate ? (
        <p>
          募集は <Time iso={closingDate} /> に締め切りました。
        </p>
      ) : null}
      <p className={styles.closedLink}>
        <Link href="/jobs">掲載中の求人を見る</Link>
      </p>
    </div>
  );
}

/** 雇用形態, 職種, 勤務地, 給与, 勤務時間, 募集締切: what is known of them. */
export function JobConditionsList({ job }: { job: Job }) {
  const rows: [string, React.ReactNode][] = [];
  const add = (label: string, value: React.ReactNode) => {
    if (value) rows.push([label, value]);
  };
  add('雇用形態', job.employmentType.join('・'));
  add('職種', job.occupation.join('・'));
  add('勤務地', placeLabel(job));
  add('給与', salaryLabel(job));
  add('勤務時間', job.hours);
  add('募集締切', job.closingDate ? <Time iso={job.closingDate} /> : null);
  return (
    <dl className={styles.facts}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function HowToApply({ apply }: { apply: ApplyLinks }) {
  if (!apply.url && !apply.email) {
    return <p>応募方法は掲載企業にお問い合わせください。</p>;
  }
  return (
    <>
      {apply.url ? (
        <>
          <p>応募は企業の採用ページで受け付けています。</p>
          <p className={styles.applyAction}>
            {/* A plain link, never prefetched: following it counts as an application click. */}
            <a href={apply.url} className={styles.applyButton} rel="nofollow">
              この求人に応募する
            </a>
          </p>
          <p className={styles.note}>企業の採用ページ（外部サイト）に移動します。</p>
        </>
      ) : null}
      {apply.email ? (
        <>
          <p>{apply.url ? 'メールでも応募できます。' : '応募はメールで受け付けています。'}</p>
          {apply.url ? (
            <p>
              応募先メールアドレス：
              <a href={apply.email.href} rel="nofollow">
                {apply.email.address}
              </a>
            </p>
          ) : (
            <>
              <p className={styles.applyAction}>
                <a href={apply.email.href} className={styles.applyButton} rel="nofollow">
                  この求人に応募する
                </a>
              </p>
              <p className={styles.note}>
                メールソフトが開きます。応募先メールアドレス：
                <span className={styles.address}>{apply.email.address}</span>
              </p>
            </>
          )}
        </>
      ) : null}
    </>
  );
}

function CompanyBlock({ partner }: { partner: NonNullable<Job['partner']> }) {
  return (
    <section className={styles.company} aria-labelledby="job-company">
      <h2 id="job-company" className={styles.sectionTitle}>
        企業情報
      </h2>
      <div className={styles.companyBody}>
        {partner.logo ? (
          <span className={styles.companyLogo}>
            <ResponsiveImage
              src={partner.logo.url}
              alt={`${partner.name}のロゴ`}
              fill
              sizes="6rem"
            />
          </span>
        ) : null}
        <div>
          <p className={styles.companyName}>{partner.name}</p>
          {partner.description ? <p>{partner.description}</p> : null}
          {partner.website && /^https?:\/\//i.test(partner.website) ? (
            <p>
              <a href={partner.website} rel="noopener noreferrer" target="_blank">
                企業のウェブサイト
                <span className="visually-hidden">（新しいタブで開きます）</span>
              </a>
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}
