/**
 * Reads of one resource by id are answered before Nest's router (src/direct-reads.ts) only
 * while nothing but the application's pipeline applies to them: a route's own guard, or a
 * module's middleware, still runs once added.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  type CanActivate,
  Controller,
  Get,
  Injectable,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  UseGuards,
} from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';

import { DirectRead } from '../src/common/http/direct-read.decorator.js';
import { ResourceId } from '../src/common/http/resource-id.decorator.js';
import { createPet, createShelter, http, startApp, TOKEN } from './support/app.js';

@Injectable()
class RefuseGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

@Controller('guarded')
class GuardedController {
  @Get(':id')
  @DirectRead()
  @UseGuards(RefuseGuard)
  findOne(@ResourceId('pet') id: string) {
    return { id: Number(id), version: 1 };
  }
}

@Module({ controllers: [GuardedController], providers: [RefuseGuard] })
class GuardedModule {}

@Module({})
class StampModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply((_req: IncomingMessage, res: ServerResponse, next: () => void) => {
        res.setHeader('X-Stamped', 'yes');
        next();
      })
      .forRoutes('*path');
  }
}

describe('reads answered before the router', () => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('answer a pet as the pipeline does: ETag, 304, HEAD, and 404 for one that is not there', async () => {
    app = await startApp();
    const shelter = await createShelter(app);
    const pet = await createPet(app, shelter.id);
    const read = await http(app).get(`/pets/${pet.id}`).expect(200);
    expect(read.body).toEqual(pet);
    expect(read.headers.etag).toBe(`"${pet.id}.1"`);
    expect(read.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(read.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(read.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    await http(app).get(`/pets/${pet.id}/`).set('If-None-Match', read.headers.etag).expect(304, '');
    const head = await http(app).head(`/shelters/${shelter.id}`).expect(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(shelter))));
    await http(app).get('/pets/999').expect(404);
  });

  it('answer a whole list asked with no query string as the same list asked through the router', async () => {
    app = await startApp();
    const shelter = await createShelter(app);
    await createPet(app, shelter.id, { name: 'Rex' });
    await createPet(app, shelter.id, { name: 'Tom' });
    const direct = await http(app).get('/pets').set('Accept-Encoding', 'identity').expect(200);
    const routed = await http(app).get('/pets?sort=id').set('Accept-Encoding', 'identity').expect(200);
    expect(direct.body).toEqual(routed.body);
    expect(direct.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(direct.headers.vary).toBe('Accept-Encoding');
    expect((direct.body as { name: string }[]).map((pet) => pet.name)).toEqual(['Rex', 'Tom']);
    await http(app).get('/shelters/').expect(200, [shelter]);
  });

  it('answer a page asked with a plain query string as the router does, its Link with the path as asked', async () => {
    app = await startApp();
    const shelter = await createShelter(app);
    for (const name of ['A', 'B', 'C']) {
      await createPet(app, shelter.id, { name });
    }
    for (const path of ['/pets', '/pets/']) {
      const direct = await http(app).get(`${path}?limit=1&offset=1`).expect(200);
      // Percent-encoded, the same query goes through the router.
      const routed = await http(app).get(`${path}?limit=1&offset=%31`).expect(200);
      expect(direct.body).toEqual(routed.body);
      expect((direct.body as { name: string }[]).map((pet) => pet.name)).toEqual(['B']);
      expect(direct.headers['x-total-count']).toBe('3');
      expect(direct.headers.link).toBe(routed.headers.link?.replaceAll('offset=%31', 'offset=1'));
      expect(direct.headers.link).toContain(`<${path}?limit=1&offset=2>; rel="next"`);
      const again = await http(app).get(`${path}?limit=1&offset=1`).expect(200);
      expect(again.headers.link).toBe(direct.headers.link);
    }
    await http(app).get('/pets?limit=0').expect(400);
  });

  it('answer what was last written, the kept answer of an earlier read notwithstanding', async () => {
    app = await startApp();
    const shelter = await createShelter(app);
    const pet = await createPet(app, shelter.id);
    const first = await http(app).get(`/pets/${pet.id}`).expect(200);
    await http(app).get(`/pets/${pet.id}`).expect(200, first.body);
    const patched = await http(app)
      .patch(`/pets/${pet.id}`)
      .set('Authorization', TOKEN)
      .send({ name: 'Tom' })
      .expect(200);
    const second = await http(app).get(`/pets/${pet.id}`).set('If-None-Match', first.headers.etag).expect(200);
    expect(second.body).toEqual(patched.body);
    expect(second.headers.etag).toBe(patched.headers.etag);
    await http(app).delete(`/pets/${pet.id}`).set('Authorization', TOKEN).expect(200);
    await http(app).get(`/pets/${pet.id}`).expect(404);
  });

  it('leave a route with a guard of its own to the pipeline', async () => {
    app = await startApp({}, [GuardedModule]);
    const refused = await http(app).get('/guarded/1').expect(403);
    expect(refused.body).toMatchObject({ status: 403, error: 'Forbidden' });
  });

  it('leave every route to the pipeline once a module configures middleware', async () => {
    // On Express, whatever the suite's adapter: the Fastify adapter runs no Nest middleware.
    app = await startApp({ HTTP_ADAPTER: 'express' }, [StampModule]);
    const shelter = await createShelter(app);
    const read = await http(app).get(`/shelters/${shelter.id}`).expect(200);
    expect(read.headers['x-stamped']).toBe('yes');
  });
});
