// Starts the built site for the browser journeys, with a real SMTP listener capturing its mail into
// files the journeys read (tests/e2e/support.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { SMTPServer } from 'smtp-server';

const mailDir = process.env.E2E_MAIL_DIR;
const smtpPort = Number(process.env.E2E_SMTP_PORT);
fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
fs.rmSync(mailDir, { recursive: true, force: true });
fs.mkdirSync(mailDir, { recursive: true });

let count = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (chunk) => (raw += chunk.toString()));
    stream.on('end', () => {
      count += 1;
      const to = session.envelope.rcptTo.map((r) => r.address).join(',');
      // Write then rename, so a journey polling the folder never reads half a message.
      const file = `${mailDir}/${String(count).padStart(4, '0')}.json`;
      fs.writeFileSync(`${file}.tmp`, JSON.stringify({ to, raw }));
      fs.renameSync(`${file}.tmp`, file);
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));

const server = spawn(process.execPath, ['dist/server/main.js'], {
  stdio: 'inherit',
  // No load balancer in front of the journeys: stop at once instead of draining.
  env: { ...process.env, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, SHUTDOWN_DRAIN_MS: '0' },
});
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  smtp.close(() => process.exit(code ?? 0));
});
