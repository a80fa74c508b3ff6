/**
 * The service's one logger: a single pino instance for the application's messages (as Nest's
 * LoggerService) and for request lines, written asynchronously in batches to standard output.
 * Request lines, the only lines every request costs, are put together from one template in
 * either format: pino's JSON, or the line pino-pretty would write for it (one line, the level,
 * the message, the fields as JSON). The other lines are few (start-up, errors): pino writes
 * them, and in the pretty format pino-pretty formats them on the way out, so every line keeps
 * its order.
 */
import { writeSync } from 'node:fs';
import { hostname } from 'node:os';

import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import { prettyFactory } from 'pino-pretty';

import type { AppConfig } from '../config/app.config.js';
import { redactCredentials } from './redact.js';

export type LogLevel = Level;

type LoggerConfig = Pick<AppConfig, 'logFormat' | 'logLevel'>;

/** pino-pretty's settings for the pretty format: one line per entry, without pid and hostname. */
const prettyOptions = (colorize: boolean) => ({ colorize, ignore: 'pid,hostname', singleLine: true });

function destination(config: LoggerConfig): DestinationStream {
  const lines = new TurnBatches(pino.destination({ dest: STDOUT, sync: false }));
  return config.logFormat === 'pretty' ? new PrettyLines(lines, process.stdout.isTTY === true) : lines;
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

/**
 * The pretty format: pino's JSON lines turned into pino-pretty's, and request lines, already
 * in that form, passed on as they are.
 */
export class PrettyLines implements DestinationStream {
  private readonly pretty: (line: string) => string;

  constructor(
    readonly out: DestinationStream,
    readonly colorize: boolean,
  ) {
    this.pretty = prettyFactory(prettyOptions(colorize));
  }

  write(line: string): void {
    this.out.write(this.pretty(line));
  }
}

export class AppLogger implements LoggerService {
  readonly pino: Logger;
  private readonly stream: DestinationStream;
  /** What pino puts after `level` and `time` on every line: `,"pid":…,"hostname":"…"`. */
  private readonly bindings: string;
  /** In the pretty format: where its lines go, and how their level and time read. */
  private readonly pretty?: { out: DestinationStream; labels: Record<string, string>; clock: Clock };

  constructor(config: LoggerConfig, stream: DestinationStream = destination(config)) {
    this.stream = stream;
    // pino's default base, stated here so that request lines carry the same.
    const base = { pid: process.pid, hostname: hostname() };
    this.pino = pino({ level: config.logLevel, base }, stream);
    this.bindings = `,${JSON.stringify(base).slice(1, -1)}`;
    if (stream instanceof PrettyLines) {
      this.pretty = { out: stream.out, labels: levelLabels(stream.colorize), clock: new Clock() };
    }
  }

  /**
   * Writes a line from fields already written as JSON (`"a":1,"b":"x"`), for the request
   * lines: a line a request costs is put together with one template, not through a serializer
   * or a formatter. JSON as pino writes it, or the one line pino-pretty would make of that.
   * The caller has checked the level.
   */
  writeLine(level: LogLevel, fields: string, message: string): void {
    const pretty = this.pretty;
    if (pretty !== undefined) {
      pretty.out.write(
        `[${pretty.clock.now()}] ${pretty.labels[level]}${message}${pretty.labels.fields}{${fields}}${pretty.labels.end}\n`,
      );
      return;
    }
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

/** pino-pretty's colour of each level: the escape codes that open and close it. */
const COLORS: Record<string, [string, string]> = {
  trace: ['\u001b[90m', '\u001b[39m'],
  debug: ['\u001b[34m', '\u001b[39m'],
  info: ['\u001b[32m', '\u001b[39m'],
  warn: ['\u001b[33m', '\u001b[39m'],
  error: ['\u001b[31m', '\u001b[39m'],
  fatal: ['\u001b[41m', '\u001b[49m'],
};

/**
 * What surrounds a request line's parts in pino-pretty's single-line form: `INFO: ` before the
 * message (by level), the space before the fields, and the end; with pino-pretty's colours
 * when it colours (level, cyan message, grey fields).
 */
function levelLabels(colorize: boolean): Record<string, string> {
  const labels: Record<string, string> = {
    fields: colorize ? '\u001b[39m \u001b[90m' : ' ',
    end: colorize ? '\u001b[39m' : '',
  };
  for (const [level, [open, close]] of Object.entries(COLORS)) {
    const label = level.toUpperCase();
    labels[level] = colorize ? `${open}${label}${close}: \u001b[36m` : `${label}: `;
  }
  return labels;
}

/** The local time of day as pino-pretty shows it (`HH:MM:ss.l`), the part before the milliseconds made once a second. */
class Clock {
  private second = -1;
  private prefix = '';

  now(): string {
    const time = Date.now();
    const second = Math.floor(time / 1000);
    if (second !== this.second) {
      const date = new Date(time);
      this.second = second;
      this.prefix = `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.`;
    }
    return this.prefix + String(time % 1000).padStart(3, '0');
  }
}

const two = (value: number) => String(value).padStart(2, '0');
