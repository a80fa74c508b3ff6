/** The security schemes of the OpenAPI document; routes without `@RequireAuth` get `token` on writes. */
export const SECURITY_SCHEMES = { token: 'token', admin: 'admin' } as const;
