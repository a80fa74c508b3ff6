/** GET /shelters takes no query parameters; any one given is reported as unknown. */
export class ShelterQueryDto {}
