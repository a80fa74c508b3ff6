/**
 * A failed readiness check answers 503 with terminus's report of every check, the format
 * orchestrators and dashboards read, rather than the API's error shape.
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, ServiceUnavailableException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

@Catch(ServiceUnavailableException)
export class HealthCheckFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: ServiceUnavailableException, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<unknown>();
    this.adapterHost.httpAdapter.reply(res, exception.getResponse(), exception.getStatus());
  }
}
