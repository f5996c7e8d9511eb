/** The resident memory of a process group's largest process (the server's node), from /proc. */
import fs from 'node:fs';

/** The process group of /proc/<pid>/stat (its fifth field; the name may hold spaces). */
export function processGroupOf(stat: string): number {
  const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(afterName[2]);
}

export function rssOfKb(status: string): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return match ? Number(match[1]) : 0;
}

/** Bytes of the group's largest process, or 0 when none is left. */
export function groupRss(pgid: number): number {
  let largest = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (processGroupOf(fs.readFileSync(`/proc/${entry}/stat`, 'utf8')) !== pgid) continue;
      largest = Math.max(largest, rssOfKb(fs.readFileSync(`/proc/${entry}/status`, 'utf8')));
    } catch {
      // the process ended meanwhile
    }
  }
  return largest * 1024;
}
