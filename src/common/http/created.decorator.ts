/** `@Created('/pets')`: answers 201 with `Location: /pets/{id}` of the resource the handler returns. */
import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  HttpCode,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Observable, tap } from 'rxjs';

const LOCATION_BASE = 'locationBase';

/** The `Location` of the resource a `@Created(base)` route answers with. */
export function locationOf(reflector: Reflector, context: ExecutionContext, resource: { id: number }): string {
  return `${reflector.get<string>(LOCATION_BASE, context.getHandler())}/${resource.id}`;
}

@Injectable()
export class LocationInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler<{ id: number }>): Observable<{ id: number }> {
    const res = context
      .switchToHttp()
      .getResponse<{ setHeader?: (n: string, v: string) => void; header?: (n: string, v: string) => void }>();
    return next.handle().pipe(
      tap((resource) => {
        const location = locationOf(this.reflector, context, resource);
        if (res.header) {
          res.header('Location', location);
        } else {
          res.setHeader?.('Location', location);
        }
      }),
    );
  }
}

export const Created = (base: string) =>
  applyDecorators(HttpCode(201), SetMetadata(LOCATION_BASE, base), UseInterceptors(LocationInterceptor));
