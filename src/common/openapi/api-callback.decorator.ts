/**
 * `@ApiCallback('event', '{$request.body#/url}', 'WebhookEventPayload')`: the operation
 * registers a URL that the service then calls with a POST of that schema (an OpenAPI 3.0
 * callback). The schema must be known to the document (`@ApiExtraModels`).
 */
import { ApiExtension } from '@nestjs/swagger';

export const CALLBACK_EXTENSION = 'x-callback';

export interface CallbackDeclaration {
  name: string;
  url: string;
  schema: string;
  description: string;
}

export const ApiCallback = (name: string, url: string, schema: string, description: string) =>
  ApiExtension(CALLBACK_EXTENSION, { name, url, schema, description } satisfies CallbackDeclaration);

/** The operation's `callbacks` object for a declaration. */
export function callbackOf({ name, url, schema, description }: CallbackDeclaration) {
  return {
    [name]: {
      [url]: {
        post: {
          summary: `The ${name} the service sends`,
          description,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
          },
          // The receiver authenticates the call by its signature, not by a token.
          security: [],
          responses: {
            '2XX': { description: 'Delivered.' },
            '4XX': { description: 'Refused: tried again later, as any answer but 2xx.' },
          },
        },
      },
    },
  };
}
