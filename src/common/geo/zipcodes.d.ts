/** The part of the `zipcodes` package (which ships no types) that geo.ts uses. */
declare module 'zipcodes' {
  export interface ZipCode {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  export function lookup(zip: string): ZipCode | undefined;
}
