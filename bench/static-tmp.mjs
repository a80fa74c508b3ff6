import { createServer } from 'node:http';
import autocannon from 'autocannon';
const res0 = await fetch('http://127.0.0.1:4100/pets?species=cat&status=available');
const buf = Buffer.from(await res0.arrayBuffer());
const server = createServer((req, res) => { res.writeHead(200, {'content-type':'application/json','content-length':buf.length}); res.end(buf); }).listen(4101);
const r = await autocannon({ url: 'http://127.0.0.1:4101/', connections: 50, duration: 5 });
console.log('same-process', r.requests.average, r.latency.p50, r.latency.p99);
server.close();
