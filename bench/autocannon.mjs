/**
 * autocannon, the bench's load generator, keeping no answer body. autocannon appends every
 * chunk of every answer to a string (decoding it as UTF-8) in case an option checks the body;
 * the bench sets none (each scenario's answer is checked once, with fetch, before it is
 * measured). For a gzip answer that decoding is the client's whole cost: profiled against a
 * server sending a 49 KB gzip list with no work at all, 92% of the client's thread went to
 * Buffer#toString, which held it to 1,950 answers a second and a p99 of 49 ms, where without
 * it the same server answered 37,800 a second with a p99 of 3 ms. Byte counts and latencies
 * are unchanged. Workers (autocannon's `workers` option) would not see this change: the bench
 * uses none.
 */
import autocannon from 'autocannon';
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue.js';

PipelinedRequestsQueue.prototype.addBody = function addBody() {};

export default autocannon;
