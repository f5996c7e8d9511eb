import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Database } from '@/server/platform/db/client';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { type BackupResult, createBackup } from './create-backup';
import { type RestoreResult, restoreBackup } from './restore-backup';

/**
 * Backup and restore as the admin CLI runs them, each leaving its audit record
 * (`backup-created` in the instance backed up, `backup-restored` in the one restored into).
 */

const totalRows = (result: { manifest: BackupResult['manifest'] }) =>
  result.manifest.tables.reduce((sum, t) => sum + t.rows, 0);

export async function backupWithAudit(
  database: Database,
  storage: MediaStorage,
  options: { out: string; actor: string },
): Promise<BackupResult> {
  const result = await createBackup(database, storage, { out: options.out });
  await recordAudit(database.db, {
    actor: options.actor,
    action: 'backup-created',
    detail: {
      file: result.file,
      bytes: result.bytes,
      tables: result.manifest.tables.length,
      rows: totalRows(result),
      files: result.manifest.files.count,
      missingFiles: result.missingFiles.length,
    },
  });
  return result;
}

export async function restoreWithAudit(
  database: Database,
  storage: MediaStorage,
  options: { file: string; actor: string },
): Promise<RestoreResult> {
  const result = await restoreBackup(database, storage, fs.createReadStream(options.file));
  await recordAudit(database.db, {
    actor: options.actor,
    action: 'backup-restored',
    detail: {
      file: path.basename(options.file),
      createdAt: result.manifest.createdAt,
      appVersion: result.manifest.appVersion,
      from: result.manifest.database.kind,
      rows: result.rows,
      files: result.files,
    },
  });
  return result;
}
