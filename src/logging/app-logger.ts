/**
 * The service's one logger: a single pino instance for the application's messages (as Nest's
 * LoggerService) and for request lines. JSON is written asynchronously in batches; the
 * pretty format for people is produced by pino-pretty in a worker thread (a pino transport),
 * so neither format costs the request path more than putting the line together.
 */
import { writeSync } from 'node:fs';
import { hostname } from 'node:os';

import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Level, type Logger, pino } from 'pino';

import type { AppConfig } from '../config/app.config.js';
import { redactCredentials } from './redact.js';

export type LogLevel = Level;

function destination(config: AppConfig): DestinationStream {
  if (config.logFormat === 'pretty') {
    return pino.transport({
      target: 'pino-pretty',
      options: { destination: 1, colorize: process.stdout.isTTY === true, ignore: 'pid,hostname' },
    });
  }
  return new TurnBatches(pino.destination({ dest: STDOUT, sync: false }));
}

const STDOUT = 1;
type FileDestination = ReturnType<typeof pino.destination>;

/**
 * JSON lines, written asynchronously: the lines of one turn of the event loop are handed
 * together, at its end, to pino's file writer (which writes them as soon as its previous write
 * is done). Handed one at a time they would cost more the more lines wait, as the writer counts
 * the bytes of its whole queue on every write. Lines still waiting when the process exits are
 * written then, after the writer's own queue (which pino writes out at exit).
 */
class TurnBatches implements DestinationStream {
  private lines: string[] = [];

  constructor(private readonly file: FileDestination) {}

  write(line: string): void {
    if (this.lines.push(line) === 1) {
      setImmediate(this.flush);
      process.once('exit', this.flushAtExit);
    }
  }

  private readonly flush = (): void => {
    process.removeListener('exit', this.flushAtExit);
    const text = this.take();
    try {
      this.file.write(text);
    } catch {
      // The writer was closed (the process is ending): the lines are lost with it.
    }
  };

  private readonly flushAtExit = (): void => {
    try {
      writeSync(STDOUT, this.take());
    } catch {
      // Nowhere left to write to: the lines are lost with the process.
    }
  };

  private take(): string {
    const text = this.lines.join('');
    this.lines = [];
    return text;
  }
}

export class AppLogger implements LoggerService {
  readonly pino: Logger;
  private readonly stream: DestinationStream;
  /** What pino puts after `level` and `time` on every line: `,"pid":…,"hostname":"…"`. */
  private readonly bindings: string;

  constructor(config: AppConfig, stream: DestinationStream = destination(config)) {
    this.stream = stream;
    // pino's default base, stated here so that request lines carry the same.
    const base = { pid: process.pid, hostname: hostname() };
    this.pino = pino({ level: config.logLevel, base }, stream);
    this.bindings = `,${JSON.stringify(base).slice(1, -1)}`;
  }

  /**
   * Writes a line in pino's own format from fields already written as JSON (`"a":1,"b":"x"`),
   * for the request lines: a line a request costs is put together with one template, not
   * through a serializer. The caller has checked the level.
   */
  writeLine(level: LogLevel, fields: string, message: string): void {
    this.stream.write(
      `{"level":${this.pino.levels.values[level]},"time":${Date.now()}${this.bindings},${fields},"msg":${JSON.stringify(message)}}\n`,
    );
  }

  /** Whether lines of this level are written at all (cheap: read before a line is put together). */
  enabled(level: LogLevel): boolean {
    return this.pino.isLevelEnabled(level);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    // Nest passes (message, stack, context), or (message, context) when there is no stack.
    const [first, second] = params;
    const [stack, context] =
      params.length > 1 ? [first, second] : isStack(first) ? [first, undefined] : [undefined, first];
    this.line(
      'error',
      message,
      typeof context === 'string' ? context : undefined,
      typeof stack === 'string' ? stack : undefined,
    );
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: LogLevel, message: unknown, params: unknown[]): void {
    const context = params.at(-1);
    this.line(level, message, typeof context === 'string' ? context : undefined);
  }

  private line(level: LogLevel, message: unknown, context?: string, stack?: string): void {
    if (!this.pino.isLevelEnabled(level)) {
      return;
    }
    // Messages and stacks may quote a URL (a driver's or a library's error): no credential in it is written.
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    if (stack !== undefined) {
      fields.err = { stack: redactCredentials(stack) };
    }
    if (message instanceof Error) {
      const text = redactCredentials(message.message);
      const stackText = message.stack === undefined ? undefined : redactCredentials(message.stack);
      this.pino[level]({ ...fields, err: { type: message.name, message: text, stack: stackText } }, text);
    } else if (typeof message === 'object' && message !== null) {
      const redacted: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(message as Record<string, unknown>)) {
        redacted[key] = typeof value === 'string' ? redactCredentials(value) : value;
      }
      this.pino[level]({ ...fields, ...redacted });
    } else {
      this.pino[level](fields, redactCredentials(String(message)));
    }
  }
}

function isStack(value: unknown): value is string {
  return typeof value === 'string' && /\n\s+at /.test(value);
}
