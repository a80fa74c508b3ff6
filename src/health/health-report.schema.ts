/**
 * terminus's report, which the probes answer with, for the OpenAPI document. Declared here
 * rather than left to `@HealthCheck()`, which documents it only when it can `require` the
 * ESM-only @nestjs/swagger (so the document would differ between the service and its tests).
 */
const checks = (description: string) => ({
  type: 'object',
  description,
  additionalProperties: {
    type: 'object',
    required: ['status'],
    properties: {
      status: { type: 'string', enum: ['up', 'degraded', 'down'] },
      responseTime: { type: 'number', description: 'How long the check took, in milliseconds.' },
      message: { type: 'string', description: 'Why the check is not up.' },
    },
  },
});

export function healthReport(statuses: readonly string[]) {
  return {
    type: 'object',
    required: ['status', 'info', 'error', 'details'],
    properties: {
      status: { type: 'string', enum: [...statuses] },
      info: { ...checks('The checks that are up or degraded.'), nullable: true },
      error: { ...checks('The checks that are down.'), nullable: true },
      details: checks('Every check.'),
    },
  };
}
