/**
 * A private PostgreSQL cluster for fault tests (stopped, frozen, restarted at will), or a
 * streaming replica of one, never the shared server: initdb into a directory under /tmp, on a port of its own, removed at the end.
 * Run as root, the cluster belongs to the `postgres` user.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';
/** Why the private cluster cannot be made here, or null when it can. */
export const NO_PRIVATE_PG: string | null = !existsSync(join(BIN, 'initdb'))
  ? `${BIN}/initdb is not installed`
  : process.getuid?.() === 0 && !hasUser('postgres')
    ? 'running as root without a postgres user for initdb'
    : null;

function hasUser(name: string): boolean {
  try {
    execFileSync('id', [name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The command running a PostgreSQL program as the cluster's owner. */
function command(program: string, args: string[]): [string, string[]] {
  const argv = [join(BIN, program), ...args];
  if (process.getuid?.() === 0) return ['su', ['postgres', '-c', argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')]];
  return [argv[0], argv.slice(1)];
}

/** Runs a PostgreSQL program as the cluster's owner. */
function run(program: string, args: string[]): void {
  const [file, argv] = command(program, args);
  execFileSync(file, argv, { stdio: 'ignore' });
}

/** `run` without blocking the event loop (a bench's requests go on meanwhile). */
async function runAsync(program: string, args: string[]): Promise<void> {
  const [file, argv] = command(program, args);
  await promisify(execFile)(file, argv);
}

export interface PrivatePostgres {
  url: string;
  port: number;
  start(): void;
  /**
   * Stops the server: `fast` (the default) disconnects clients and waits until it is down;
   * `smart` refuses new connections and returns at once, the server going down once its
   * sessions have ended.
   */
  stop(mode?: 'fast' | 'smart'): void;
  /** `stop('fast')` without blocking the event loop: resolves once the server is down. */
  stopAsync(): Promise<void>;
  /** SIGSTOP to the server and all its processes: connections stay open and nothing answers. */
  freeze(): void;
  thaw(): void;
  /** A replica made the primary (`pg_ctl promote`, waiting until it accepts writes). */
  promote(): void;
  /**
   * Made a streaming replica of `primary` on its own port (a stopped old primary returning as a
   * standby after a failover): its data replaced by a base backup of `primary`, then started.
   */
  follow(primary: PrivatePostgres): void;
  remove(): void;
}

/** MDS_PRIVATE_PG_PORTS (`first-last`): the ports private clusters may take (a machine shared by several runs), else any of 55432..60431. */
function privatePorts(): [number, number] | null {
  const m = /^(\d+)-(\d+)$/.exec(process.env.MDS_PRIVATE_PG_PORTS ?? '');
  return m && Number(m[1]) <= Number(m[2]) ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * Creates and starts a private cluster: a new one, or with `replicaOf` a streaming replica of
 * that one (pg_basebackup of it, then a hot standby following it). `settings`: more `-c`
 * settings of the server.
 */
export function privatePostgres(opts: { replicaOf?: PrivatePostgres; settings?: string[] } = {}): PrivatePostgres {
  const dir = mkdtempSync('/tmp/mds-pg-');
  if (process.getuid?.() === 0)
    chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const data = join(dir, 'data');
  const baseBackup = (of: PrivatePostgres) =>
    run('pg_basebackup', [
      '-D',
      data,
      '-h',
      '127.0.0.1',
      '-p',
      String(of.port),
      '-U',
      'postgres',
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
    ]);
  if (opts.replicaOf) baseBackup(opts.replicaOf);
  else run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const settings = (opts.settings ?? []).map((c) => ` -c ${c}`).join('');
  let port = 0;
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-t',
      '30',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off${settings}`,
      'start',
    ]);
  const range = privatePorts();
  for (let attempt = 0; ; attempt++) {
    port = range
      ? range[0] + ((attempt + Math.floor(Math.random() * 1000)) % (range[1] - range[0] + 1))
      : 55432 + Math.floor(Math.random() * 5000);
    try {
      start();
      break;
    } catch (e) {
      if (attempt >= 4) {
        rmSync(dir, { recursive: true, force: true });
        throw e;
      }
    }
  }
  /** The postmaster and its children. */
  const pids = () => {
    const main = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const kids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(main)])
      .toString()
      .split('\n')
      .map(Number)
      .filter((n) => n > 0);
    return [main, ...kids];
  };
  let frozen = false;
  const signal = (sig: NodeJS.Signals) => {
    for (const p of pids()) {
      try {
        process.kill(p, sig);
      } catch {
        /* gone */
      }
    }
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop: (mode = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, mode === 'fast' ? '-w' : '-W', 'stop']),
    stopAsync: () => runAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    freeze() {
      signal('SIGSTOP');
      frozen = true;
    },
    thaw() {
      signal('SIGCONT');
      frozen = false;
    },
    promote: () => run('pg_ctl', ['-D', data, '-w', '-t', '30', 'promote']),
    follow(primary) {
      if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      rmSync(data, { recursive: true, force: true });
      baseBackup(primary);
      start();
    },
    remove() {
      try {
        if (frozen) signal('SIGCONT');
        if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
