import fs from 'node:fs';
import path from 'node:path';

/**
 * A good .tar.gz spoiled three ways, written beside it, each with what the refusal of it must
 * say: the content import and the backup restore read archives through one pipeline
 * (src/server/platform/archive/read-archive.ts) and must refuse these alike.
 */
export function brokenArchives(file: string): { file: string; says: RegExp }[] {
  const whole = fs.readFileSync(file);
  const spoiled = (name: string, bytes: Uint8Array, says: RegExp) => {
    const broken = path.join(path.dirname(file), name);
    fs.writeFileSync(broken, bytes);
    return { file: broken, says };
  };
  return [
    // Cut in the gzip trailer, after the tar's end: its length and checksum must still be read.
    spoiled('trailer.tar.gz', whole.subarray(0, -4), /gzip のデータが途中で終わっています/),
    spoiled('half.tar.gz', whole.subarray(0, whole.length >> 1), /途中で終わっています/),
    spoiled('plain.tar.gz', Buffer.from('not an archive'), /gzip として展開できません/),
  ];
}
