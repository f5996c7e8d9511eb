import { Link } from '@/components/layout/site-link';
import { EMPLOYMENT_TYPES, OCCUPATIONS, PREFECTURES } from '@/lib/jobs';
import { type JobQuery, REMOTE_LOCATION, REMOTE_LOCATION_LABEL, isFiltered } from './job-query';
import styles from './jobs.module.css';
import { Options } from '@/components/forms/options';

/**
 * The /jobs filters: a plain GET form, so it works without JavaScript and the conditions stay
 * in the URL (shareable, and the paging links keep them). Submitting starts at page 1.
 */
export function JobFilterForm({
  query,
  partners,
}: {
  query: JobQuery;
  partners: readonly { id: string; name: string }[];
}) {
  return (
    <form
      method="get"
      action="/jobs"
      className={styles.filters}
      role="search"
      aria-label="求人の絞り込み"
    >
      <div className={styles.filterFields}>
        <Select name="type" label="雇用形態" value={query.type}>
          <Options items={EMPLOYMENT_TYPES} />
        </Select>
        <Select name="occupation" label="職種" value={query.occupation}>
          <Options items={OCCUPATIONS} />
        </Select>
        <Select name="location" label="勤務地" value={query.location}>
          <option value={REMOTE_LOCATION}>{REMOTE_LOCATION_LABEL}</option>
          <optgroup label="都道府県">
            <Options items={PREFECTURES} />
          </optgroup>
        </Select>
        <Select name="partner" label="企業" value={query.partner}>
          <Options
            items={partners}
            value={(partner) => partner.id}
            label={(partner) => partner.name}
          />
        </Select>
      </div>
      <div className={styles.filterActions}>
        <button type="submit" className={styles.submit}>
          絞り込む
        </button>
        {isFiltered(query) ? (
          <Link href="/jobs" className={styles.clear}>
            条件をクリア
          </Link>
        ) : null}
      </div>
    </form>
  );
}

function Select({
  name,
  label,
  value,
  children,
}: {
  name: string;
  label: string;
  value: string | undefined;
  children: React.ReactNode;
}) {
  const id = `job-filter-${name}`;
  return (
    <div className={styles.filterField}>
      <label htmlFor={id} className={styles.filterLabel}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ''} className={styles.select}>
        <option value="">すべて</option>
        {children}
      </select>
    </div>
  );
}
