/**
 * A typed client of adoption-service: `openapi-fetch` over `schema.d.ts`, the types that
 * openapi-typescript generates from the service's OpenAPI document (`npm run client:generate`
 * in the service's folder; `npm run lint` fails while they differ from the document).
 *
 *   const api = createAdoptionClient({ baseUrl: 'http://localhost:3000', token: 'my-token' });
 *   const { data: cats } = await api.GET('/pets', { params: { query: { species: ['cat'] } } });
 */
import createClient, { type ClientOptions } from 'openapi-fetch';

import type { components, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

type Schemas = components['schemas'];
export type Pet = Schemas['PetResponse'];
export type NewPet = Schemas['CreatePetDto'];
export type PetChanges = Schemas['UpdatePetDto'];
export type PetStatusChange = Schemas['PetStatusChangeResponse'];
export type Shelter = Schemas['ShelterResponse'];
export type NewShelter = Schemas['CreateShelterDto'];
export type ShelterChanges = Schemas['UpdateShelterDto'];
export type ApiError = Schemas['Error'];

export interface AdoptionClientOptions extends Omit<ClientOptions, 'querySerializer'> {
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`: writes need one, token management the admin key. */
  token?: string;
}

export type AdoptionClient = ReturnType<typeof createClient<paths>>;

export function createAdoptionClient({ token, headers, ...options }: AdoptionClientOptions): AdoptionClient {
  const client = createClient<paths>({
    ...options,
    headers,
    // A list filter is one comma-separated value (`species=cat,dog`), as the document says
    // (`style: form`, `explode: false`); the service refuses a repeated parameter.
    querySerializer: { array: { style: 'form', explode: false } },
  });
  if (token !== undefined) {
    client.use({
      onRequest: ({ request }) => {
        request.headers.set('Authorization', `Bearer ${token}`);
        return request;
      },
    });
  }
  return client;
}
