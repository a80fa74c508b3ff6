/** Structured request logs of the built service: one JSON line per request, no secrets. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { ensureBuilt } from '../support/build.js';
import { rawExchange } from '../support/raw-http.js';
import { ServiceProcess } from '../support/server.js';

const ADMIN = 'admin-key-for-logging-tests-0123456789abcdef';

interface LogLine {
  level: number;
  msg: string;
  request_id?: string;
  route?: string;
  remote_address?: string;
  req?: { method: string; url: string };
  res?: { status: number };
  duration_ms?: number;
}

function requestLines(log: string): LogLine[] {
  return log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.req !== undefined && line.req.url !== '/health/live');
}

describe('request logs', () => {
  it('writes one JSON line per request with method, route, status, duration and request id, and no secrets', async () => {
    const service = await ServiceProcess.start({
      DATABASE_URL: 'sqlite::memory:',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      AUTH_MODE: 'production',
      ADMIN_TOKEN: ADMIN,
    });
    let issued: string;
    try {
      await service.http().get('/pets/7').set('X-Request-Id', 'trace-me-1').expect(404);
      const res = await service
        .http()
        .post('/auth/tokens')
        .set('Authorization', `Bearer ${ADMIN}`)
        .send({ name: 'logging' })
        .expect(201);
      issued = (res.body as { token: string }).token;
      await service.http().post('/shelters').set('Authorization', `Bearer ${issued}`).send({}).expect(400);
    } finally {
      // The lines are all out once the service has exited.
      await service.stop();
    }
    const lines = requestLines(service.log);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: expect.stringMatching(/^GET \/pets\/7 404 \d+ ms$/) as unknown,
        request_id: 'trace-me-1',
        route: '/pets/:id',
        remote_address: '127.0.0.1',
        req: { method: 'GET', url: '/pets/7' },
        res: { status: 404 },
        duration_ms: expect.any(Number) as unknown,
      }),
      expect.objectContaining({
        level: 30,
        route: '/auth/tokens',
        req: { method: 'POST', url: '/auth/tokens' },
        res: { status: 201 },
      }),
      expect.objectContaining({
        level: 40,
        route: '/shelters',
        req: { method: 'POST', url: '/shelters' },
        res: { status: 400 },
      }),
    ]);
    expect(lines[1].request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(service.log).not.toContain(ADMIN);
    expect(service.log).not.toContain(issued);
  });

  it.each(['json', 'pretty'])(
    'never writes a token sent in the query string, whatever answers the request (%s lines)',
    async (format) => {
      const service = await ServiceProcess.start({ DATABASE_URL: 'sqlite::memory:', LOG_FORMAT: format });
      const secrets: string[] = [];
      const secret = () => {
        secrets.push(`SeCrEt${secrets.length}x${Date.now()}`);
        return secrets[secrets.length - 1];
      };
      try {
        const http = service.http();
        await http.get(`/pets?token=${secret()}`).expect(400);
        await http.get(`/pets?species=cat&access_token=${secret()}`).expect(400);
        await http.get(`/nowhere?api_key=${secret()}`).expect(404);
        await service.http().head(`/pets?apiKey=${secret()}`).expect(400);
        await service.http().options(`/pets?authToken=${secret()}`).expect(204);
        await service.http().post(`/pets?token=${secret()}`).send({}).expect(401);
        await service.http().get(`/pets/%?token=${secret()}`).expect(400);
        await service.http().get(`/health/live?token=${secret()}`).expect(200);
        await service.http().get(`/pets?species=cat;token=${secret()}`).expect(400);
        await service.http().get(`/pets?%74oken=${secret()}`).expect(400);
        await service.http().get(`/pets?X-Api-Key=${secret()}&client_secret=${secret()}`).expect(400);
        await rawExchange(service.port, `GET /pets?token=${secret()} HTTP/1.1\r\nConnection: close\r\n\r\n`);
        await rawExchange(
          service.port,
          `GET /pets?token=${secret()} HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n`,
        );
        await rawExchange(service.port, `GET /pets?token=${secret()} HTTP/1.1\r\nHost: x\r\nBroken header\r\n\r\n`);
      } finally {
        await service.stop();
      }
      // Each request was logged (the redacted value shows it), and no secret was.
      expect(service.log.split('[redacted]').length - 1).toBeGreaterThanOrEqual(secrets.length - 2);
      for (const value of secrets) {
        expect(service.log).not.toContain(value);
      }
    },
  );

  it('logs the client address TRUST_PROXY trusts, and the peer without it', async () => {
    const service = await ServiceProcess.start({
      DATABASE_URL: 'sqlite::memory:',
      LOG_FORMAT: 'json',
      TRUST_PROXY: 'loopback',
    });
    try {
      await service.http().get('/pets').set('X-Forwarded-For', '198.51.100.4, 203.0.113.9').expect(200);
      await service.http().get('/pets').expect(200);
    } finally {
      await service.stop();
    }
    expect(requestLines(service.log).map((line) => line.remote_address)).toEqual(['203.0.113.9', '127.0.0.1']);
  });

  it('logs nothing below LOG_LEVEL', async () => {
    const service = await ServiceProcess.start({
      DATABASE_URL: 'sqlite::memory:',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
    });
    try {
      await service.http().get('/pets').expect(200);
      await service.http().get('/pets/1').expect(404);
    } finally {
      await service.stop();
    }
    expect(requestLines(service.log).map((line) => line.res?.status)).toEqual([404]);
  });

  it('writes every line, those logged just before the process exits included', async () => {
    await ensureBuilt();
    const logger = join(process.cwd(), 'dist', 'src', 'logging', 'app-logger.js');
    // Lines of an earlier turn, then lines of the turn that calls process.exit.
    const script = `
      import { AppLogger } from ${JSON.stringify(logger)};
      const logger = new AppLogger({ logFormat: 'json', logLevel: 'info' });
      for (let i = 1; i <= 500; i++) logger.log('early ' + i, 'Exit');
      setTimeout(() => {
        for (let i = 1; i <= 3; i++) logger.log('last ' + i, 'Exit');
        logger.error('failing', 'Exit');
        process.exit(3);
      }, 20);`;
    let output = '';
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    } catch (error) {
      expect((error as { status: number }).status).toBe(3);
      output = (error as { stdout: string }).stdout;
    }
    const messages = output
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as LogLine).msg);
    const early = Array.from({ length: 500 }, (_, i) => `early ${i + 1}`);
    expect(messages).toEqual([...early, 'last 1', 'last 2', 'last 3', 'failing']);
  });
});
