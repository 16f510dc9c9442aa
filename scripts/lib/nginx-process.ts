// Debian's nginx on the built site, configured by the build's own include (dist/nginx/site.conf, written by
// server/http/nginx-site.ts), one worker, on a free loopback port: as tests/server/http/nginx.test.ts and
// `npm run bench:serve` drive it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../content/paths.ts';
import { freePort } from '../../tests/helpers/free-port.ts';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const CLIENT_DIR = join(ROOT, 'dist', 'client');
const SITE_CONF = join(ROOT, 'dist', 'nginx', 'site.conf');
const STARTUP_TIMEOUT_MS = 10_000;

export interface NginxProcess {
  url: string;
  /** Stops it gracefully (SIGQUIT: in-flight requests finish) and removes its files. */
  stop: () => Promise<void>;
}

export interface NginxOptions {
  /**
   * Node servers (`http://127.0.0.1:<port>`) to send the form API to, as one `upstream`, the way docs/DEPLOY.md
   * proxies it to several instances; without them nginx serves the site alone.
   */
  upstreams?: readonly string[];
}

/** The `upstream` and the form API's proxied location, as DEPLOY's "Several instances" writes them. */
function proxyConfig(upstreams: readonly string[]): string[] {
  if (upstreams.length === 0) return [];
  return [
    '  upstream instances {',
    ...upstreams.map((url) => `    server ${new URL(url).host};`),
    '    keepalive 16;',
    '  }',
  ];
}

const PROXIED_LOCATION = [
  '    location ~ ^/(api|forms)/ {',
  '      proxy_pass http://instances;',
  '      proxy_http_version 1.1;',
  '      proxy_set_header Connection "";',
  // The form API compares a post's Origin with the Host it was sent to: the browser's, its port included (DEPLOY's
  // $host is the same on port 443), not the upstream's name.
  '      proxy_set_header Host $http_host;',
  '      proxy_set_header X-Forwarded-For $remote_addr;',
  '      proxy_set_header X-Forwarded-Proto $scheme;',
  '    }',
];

/** Starts nginx and resolves once it answers; rejects with its error log when it does not. */
export async function startNginx({ upstreams = [] }: NginxOptions = {}): Promise<NginxProcess> {
  if (!existsSync(NGINX))
    throw new Error(`No nginx at ${NGINX}: apt-get install nginx (Debian's package) or set NGINX_PATH.`);
  if (!existsSync(SITE_CONF)) throw new Error(`No ${SITE_CONF}: run \`npm run build\` first.`);
  const dir = mkdtempSync(join(tmpdir(), 'nginx-'));
  const port = await freePort();
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `${kind}_temp_path ${dir}/${kind};`,
  );
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      '  sendfile on;',
      ...temp.map((line) => `  ${line}`),
      ...proxyConfig(upstreams),
      '  server {',
      `    listen 127.0.0.1:${port};`,
      `    root ${CLIENT_DIR};`,
      `    include ${SITE_CONF};`,
      ...(upstreams.length === 0 ? [] : PROXIED_LOCATION),
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  let stderr = '';
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const errorLog = () => {
    const file = join(dir, 'error.log');
    return stderr + (existsSync(file) ? readFileSync(file, 'utf8') : '');
  };
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx exited (code ${child.exitCode}):\n${log}`);
    }
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const log = errorLog();
      child.kill('SIGKILL');
      await stop();
      throw new Error(`nginx did not start in ${STARTUP_TIMEOUT_MS / 1000} s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, stop };
}
