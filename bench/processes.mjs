/**
 * Starting, watching and stopping the servers the bench measures, and reading what the
 * kernel knows about them: CPU time, resident memory, open sockets.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const children = new Set();

let serviceMain = join(root, 'dist', 'src', 'main.js');

/** The built service's entry point: dist/src/main.js, or the run's own copy of it (see snapshotService). */
export const serviceEntry = () => serviceMain;

/**
 * Copies dist/ into the run's temporary folder `work` and starts the service from there:
 * every server of the run is then the same build, even when dist/ is rebuilt meanwhile
 * (`nest build` empties it first). Beside the copy go the package's package.json (for
 * `"type": "module"`) and a link to its node_modules, so that the copy runs as dist/ does;
 * nothing is written in the repository, where linters would find it.
 */
export function snapshotService(work) {
  const source = join(root, 'dist');
  const dir = join(work, 'service');
  if (!existsSync(join(source, 'src', 'main.js'))) {
    throw new Error('dist/src/main.js is missing: run `npm run build` first (or it is being rebuilt right now)');
  }
  mkdirSync(dir, { recursive: true });
  cpSync(source, join(dir, 'dist'), { recursive: true });
  if (!existsSync(join(dir, 'dist', 'src', 'main.js')) || !existsSync(join(dir, 'dist', 'src', 'app.module.js'))) {
    throw new Error('dist/ changed while it was copied (rebuilt meanwhile?); run the bench again');
  }
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  serviceMain = join(dir, 'dist', 'src', 'main.js');
}

/**
 * Starts `node <command> <args>` with only PATH and `env`. Its stdout and stderr go to
 * `logFile`, written by the child itself: a pipe that the bench had to drain would cost the
 * bench CPU beside the server on a small machine, and one left undrained would block the
 * server's logger once full.
 */
export function start(command, args, env, logFile, cwd = root) {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [command, ...args], {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  child.logFile = logFile;
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.output = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  children.add(child);
  void child.exited.then(() => children.delete(child));
  return child;
}

/** The last lines a child wrote, for error messages. */
export function tail(child, lines = 20) {
  return child.output().trimEnd().split('\n').slice(-lines).join('\n');
}

export async function waitFor(url, child, attempts = 300) {
  let exited = false;
  void child?.exited.then(() => (exited = true));
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (exited) {
      throw new Error(`${url}: the server exited before answering:\n${tail(child)}`);
    }
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer${child ? `:\n${tail(child)}` : ''}`);
}

/** SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
export async function stop(child, graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/** Kills every child still running; for an interrupted run. */
export function killAll() {
  for (const child of children) {
    child.kill('SIGKILL');
  }
}

let clockTicks;
/** Kernel clock ticks per second, the unit of utime and stime in /proc/<pid>/stat. */
export function clockTicksPerSecond() {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * CPU time the whole machine has spent running processes so far (user, nice and system
 * time of every CPU; interrupts left out), in microseconds. Less the server's and the
 * bench's own time over a measurement, it tells how busy other processes kept the machine.
 */
export function machineCpuMicros() {
  const [user, nice, system] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 4);
  return ((Number(user) + Number(nice) + Number(system)) * 1_000_000) / clockTicksPerSecond();
}

const PF_KTHREAD = 0x00200000;

/**
 * CPU ticks so far of each kernel thread (writeback, journalling, network work for everyone:
 * the work a server's disk writes cause shows up there, not in the server's own time) and
 * of each database process serving the bench: PostgreSQL backends whose command line holds
 * `database` (PostgreSQL names each backend's database there), when given. By process id,
 * so that a process ending between two readings takes nothing off the other's time.
 */
function backgroundTicks(database) {
  const ticks = { kernel: new Map(), database: new Map() };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Field 9 of proc(5) (flags) is fields[6] here; 14 and 15 (utime, stime) are fields[11] and [12].
      const used = Number(fields[11]) + Number(fields[12]);
      if (Number(fields[6]) & PF_KTHREAD) {
        ticks.kernel.set(entry, used);
      } else if (database && command === 'postgres' && ownBackend(entry, database)) {
        ticks.database.set(entry, used);
      }
    } catch {
      // exited while listing
    }
  }
  return ticks;
}

/** CPU time, in microseconds, that the processes of `after` used since `before`. */
function ticksSince(before, after) {
  let ticks = 0;
  for (const [pid, used] of after) {
    ticks += used - (before.get(pid) ?? 0);
  }
  return (ticks * 1_000_000) / clockTicksPerSecond();
}

function ownBackend(pid, database) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(database);
  } catch {
    return false;
  }
}

/** User plus system CPU time of a process and all its threads so far, in microseconds. */
export function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses: count the fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 (utime) and 15 (stime) of proc(5); the first field here is field 3 (state).
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / clockTicksPerSecond();
}

/** A figure of /proc/<pid>/status in kB; undefined once the process is gone. */
function statusKb(pid, key) {
  let status;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const match = new RegExp(`${key}:\\s+(\\d+) kB`).exec(status);
  return match ? Number(match[1]) : undefined;
}

/** Current resident set size, in MB. */
export function rssMb(pid) {
  const kb = statusKb(pid, 'VmRSS');
  return kb === undefined ? undefined : Math.round(kb / 1024);
}

/** Peak resident set size so far (the kernel's high-water mark), in MB. */
export function peakRssMb(pid) {
  const kb = statusKb(pid, 'VmHWM');
  return kb === undefined ? undefined : Math.round(kb / 1024);
}

/**
 * The TCP connections a process holds open (a file descriptor on the socket), from
 * /proc/<pid>/fd and /proc/net/tcp{,6}: ports, and the bytes waiting in the kernel's send
 * queue (`sendQueue`: written, not yet acknowledged) and receive queue (`receiveQueue`:
 * arrived, not yet read). A connection the process has closed is gone from here even while
 * the kernel still tries to deliver its last bytes.
 */
export function tcpConnections(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) {
        inodes.add(match[1]);
      }
    } catch {
      // closed while listing
    }
  }
  const connections = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns.length > 9 && inodes.has(columns[9])) {
        const [sendQueue, receiveQueue] = columns[4].split(':').map((hex) => parseInt(hex, 16));
        connections.push({
          localPort: parseInt(columns[1].split(':')[1], 16),
          remotePort: parseInt(columns[2].split(':')[1], 16),
          sendQueue,
          receiveQueue,
        });
      }
    }
  }
  return connections;
}

/** A port nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts counting CPU time: the returned function tells what, since the start, the server
 * `pid`, this process (the load generator), the PostgreSQL backends of databases whose name
 * holds `databaseName` (when given), the kernel's threads and all other processes used, in %
 * of one CPU. "Others" is the machine's time less all of those: on a shared machine, figures
 * taken beside a busy neighbour are not comparable. A process that ends during the
 * measurement leaves its last time in "others" only.
 */
export function cpuMeter(pid, databaseName) {
  const before = {
    server: cpuMicros(pid),
    machine: machineCpuMicros(),
    background: backgroundTicks(databaseName),
    self: process.cpuUsage(),
    at: Date.now(),
  };
  return () => {
    const server = cpuMicros(pid) - before.server;
    const self = process.cpuUsage(before.self);
    const background = backgroundTicks(databaseName);
    const kernel = ticksSince(before.background.kernel, background.kernel);
    const database = ticksSince(before.background.database, background.database);
    const others = machineCpuMicros() - before.machine - kernel - database - server - self.user - self.system;
    const elapsed = Math.max(1, Date.now() - before.at);
    const percent = (micros) => Math.max(0, Math.round(micros / (elapsed * 10)));
    return {
      server_micros: server,
      database_micros: database,
      server: percent(server),
      self: percent(self.user + self.system),
      database: percent(database),
      kernel: percent(kernel),
      others: percent(others),
    };
  };
}

/** The service's environment as users run it. */
export function serviceEnv(url, adapter, port) {
  return {
    DATABASE_URL: url,
    HTTP_ADAPTER: adapter,
    PORT: String(port),
    HOST: '127.0.0.1',
    // As it is run: one JSON request line per request, written to a file.
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    // The limiter counts every request but never refuses one.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_PER_DAY: '1000000000000',
  };
}
