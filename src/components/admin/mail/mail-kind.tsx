import { mailKindLabel } from '@/server/platform/mail/kinds';
import styles from './mail-kind.module.css';

/**
 * A kept mail's kind as staff read it: its Japanese name, with the stored key under it in small
 * type (what the CLI's mail-outbox prints and support staff search for). A kind this version
 * does not name (an older row) shows its key alone.
 */
export function MailKindName({ kind }: { kind: string }) {
  const label = mailKindLabel(kind);
  return (
    <>
      {label}
      <code className={label ? styles.key : undefined}>{kind}</code>
    </>
  );
}
