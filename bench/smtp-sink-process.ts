/**
 * The local SMTP server of `npm run bench:newsletter`, in its own process (as a real mail
 * server would be), so that parsing the messages does not share the sender's thread. Tells its
 * port over IPC; answers `report` with how many messages each address received.
 */
import { startSmtpSink } from '../tests/support/smtp-sink';

const sink = await startSmtpSink({ countOnly: true });
process.send!({ port: sink.port });
process.on('message', (message) => {
  if (message !== 'report') return;
  const counts = sink.countsByAddress();
  const bytes = sink.messages.reduce((sum, m) => sum + m.size, 0);
  const cpu = process.cpuUsage();
  process.send!(
    {
      messages: sink.messages.length,
      addresses: counts.size,
      twice: [...counts.values()].filter((n) => n > 1).length,
      bytes,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    },
    () => void sink.close().then(() => process.exit(0)),
  );
});
