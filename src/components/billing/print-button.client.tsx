'use client';

import { Button } from '@/components/ui/button';
import styles from './receipt.module.css';

/** Prints the receipt (the print styles leave only the receipt itself on the page). */
export function PrintButton() {
  return (
    <Button color="black" width={150} className={styles.noPrint} onClick={() => window.print()}>
      印刷する
    </Button>
  );
}
