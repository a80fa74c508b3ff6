/**
 * Points on the Earth for location searches: US ZIP code centroids (the offline table of the
 * `zipcodes` package, loaded on first use), the ZIP code of a postal address, the great-circle
 * distance in miles, and the latitude/longitude box that holds every point within a distance
 * (the indexed prefilter before the exact distance).
 */

export interface Point {
  latitude: number;
  longitude: number;
}

/** The mean Earth radius in miles: the haversine distances of the API use it. */
export const EARTH_RADIUS_MILES = 3958.8;

let zipTable: Promise<typeof import('zipcodes').lookup> | undefined;

/** The centroid of a 5-digit US ZIP code, or undefined for a code the table does not know. */
export async function zipCentroid(zip: string): Promise<Point | undefined> {
  // 5 MB of JavaScript: only a process that meets a ZIP code pays for it.
  zipTable ??= import('zipcodes').then((module) => module.lookup);
  const entry = /^\d{5}$/.test(zip) ? (await zipTable)(zip) : undefined;
  return entry?.country === 'US' && Number.isFinite(entry.latitude) && Number.isFinite(entry.longitude)
    ? { latitude: entry.latitude, longitude: entry.longitude }
    : undefined;
}

/** The ZIP code of an address: its last group of exactly 5 digits, which may carry `-NNNN`. */
export function zipOfAddress(address: string): string | undefined {
  const groups = [...address.matchAll(/(?<!\d)(\d{5})(?:-\d{4})?(?!\d)/g)];
  return groups.length === 0 ? undefined : groups[groups.length - 1][1];
}

/** Where an address lies: the centroid of its ZIP code, or undefined when it has no known one. */
export async function pointOfAddress(address: string): Promise<Point | undefined> {
  const zip = zipOfAddress(address);
  return zip === undefined ? undefined : zipCentroid(zip);
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;
const degrees = (radiansValue: number) => (radiansValue * 180) / Math.PI;

/** The great-circle (haversine) distance between two points, in miles. */
export function milesBetween(a: Point, b: Point): number {
  const h =
    Math.sin(radians(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(radians(a.latitude)) *
      Math.cos(radians(b.latitude)) *
      Math.sin(radians(b.longitude - a.longitude) / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Latitudes and (unless the box reaches a pole or the antimeridian) longitudes that hold every point within `miles`. */
export interface Box {
  minLatitude: number;
  maxLatitude: number;
  longitudes?: { min: number; max: number };
}

/** A little wider than exact, so that rounding never drops a point on the edge. */
const MARGIN = 1.000001;

export function boxAround(center: Point, miles: number): Box {
  const angle = (miles / EARTH_RADIUS_MILES) * MARGIN;
  const minLatitude = center.latitude - degrees(angle);
  const maxLatitude = center.latitude + degrees(angle);
  if (minLatitude <= -90 || maxLatitude >= 90) {
    return { minLatitude, maxLatitude };
  }
  // The widest longitude span of the circle (at the latitude where it touches its meridians).
  const span = degrees(Math.asin(Math.sin(angle) / Math.cos(radians(center.latitude))));
  const min = center.longitude - span;
  const max = center.longitude + span;
  return min < -180 || max > 180
    ? { minLatitude, maxLatitude }
    : { minLatitude, maxLatitude, longitudes: { min, max } };
}
