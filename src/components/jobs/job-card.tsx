import { Link } from '@/components/layout/site-link';
import { ResponsiveImage } from '@/components/content/responsive-image';
import { formatDateJa, isoDateJa } from '@/lib/format';
import type { JobCard as JobCardData } from '@/server/features/content/lists';
import { areaLabel, salaryLabel } from './job-facts';
import styles from './jobs.module.css';

/** The open listings of /jobs, newest first. */
export function JobList({ jobs }: { jobs: readonly JobCardData[] }) {
  return (
    <ul className={styles.list}>
      {jobs.map((job) => (
        <li key={job.id}>
          <JobCard job={job} />
        </li>
      ))}
    </ul>
  );
}

/**
 * One listing as a reader scans a job board: the title (the link) and the company, then what
 * decides a click: type, area, pay and the deadline.
 */
export function JobCard({ job }: { job: JobCardData }) {
  const area = areaLabel(job);
  const salary = salaryLabel(job);
  const logo = job.partner?.logo;
  return (
    <article className={styles.card}>
      <div className={styles.cardHead}>
        {logo ? (
          <span className={styles.cardLogo}>
            <ResponsiveImage src={logo.url} alt="" fill sizes="3rem" />
          </span>
        ) : null}
        <div className={styles.cardName}>
          <h2 className={styles.cardTitle}>
            <Link href={`/jobs/${job.id}`} className={styles.cardLink}>
              {job.title}
            </Link>
          </h2>
          {job.partner ? <p className={styles.cardCompany}>{job.partner.name}</p> : null}
        </div>
      </div>
      <dl className={styles.cardFacts}>
        {job.employmentType.length > 0 ? (
          <div>
            <dt>雇用形態</dt>
            <dd>{job.employmentType.join('・')}</dd>
          </div>
        ) : null}
        {area ? (
          <div>
            <dt>勤務地</dt>
            <dd>{area}</dd>
          </div>
        ) : null}
        {salary ? (
          <div>
            <dt>給与</dt>
            <dd>{salary}</dd>
          </div>
        ) : null}
        {job.closingDate ? (
          <div>
            <dt>募集締切</dt>
            <dd>
              <time dateTime={isoDateJa(job.closingDate)}>{formatDateJa(job.closingDate)}</time>
            </dd>
          </div>
        ) : null}
      </dl>
    </article>
  );
}
