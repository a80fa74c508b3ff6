/** Structured request logs of the built service: one JSON line per request, no secrets. */
import { ServiceProcess } from '../support/server.js';

const ADMIN = 'admin-key-for-logging-tests-0123456789abcdef';

interface LogLine {
  level: number;
  msg: string;
  request_id?: string;
  route?: string;
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
      await new Promise((resolve) => setTimeout(resolve, 100));

      const lines = requestLines(service.log);
      expect(lines).toEqual([
        expect.objectContaining({
          level: 40,
          msg: expect.stringMatching(/^GET \/pets\/7 404 \d+ ms$/) as unknown,
          request_id: 'trace-me-1',
          route: '/pets/:id',
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
    } finally {
      await service.stop();
    }
    expect(service.log).not.toContain(ADMIN);
    expect(service.log).not.toContain(issued);
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
      await new Promise((resolve) => setTimeout(resolve, 100));
      const lines = requestLines(service.log);
      expect(lines.map((line) => line.res?.status)).toEqual([404]);
    } finally {
      await service.stop();
    }
  });
});
