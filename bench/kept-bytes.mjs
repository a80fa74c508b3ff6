/**
 * The fastest a server could answer a list scenario on this machine: node:http sending bytes
 * made once at start (the list of pets matching the filter given, as JSON, gzip compressed as
 * the service sends it), with no query, no pipeline and no log. What it reaches is what the
 * load generator allows; a service answer near it is bound by the client, not by the service.
 *
 *   node bench/kept-bytes.mjs <port> <filter as JSON>
 */
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

import { matches, PETS, petWithId } from './data.mjs';

const [port, filterText] = process.argv.slice(2);
const filter = JSON.parse(filterText);
const pets = [];
for (let index = 1; index <= PETS; index++) {
  const pet = petWithId(index);
  if (matches(pet, filter)) {
    pets.push(pet);
  }
}
const body = gzipSync(JSON.stringify(pets));
const headers = {
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Encoding': 'gzip',
  'Content-Length': body.length,
  Vary: 'Accept-Encoding',
};

createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1');
