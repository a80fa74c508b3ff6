import { Writable } from 'node:stream';

import { AppLogger } from './app-logger.js';
import { loggableUrl, redactCredentials } from './redact.js';

describe('loggableUrl', () => {
  it.each([
    ['/pets?token=s3cret', '/pets?token=[redacted]'],
    [
      '/pets?species=cat&access_token=s3cret&status=available',
      '/pets?species=cat&access_token=[redacted]&status=available',
    ],
    ['/pets?api_key=s3cret', '/pets?api_key=[redacted]'],
    ['/pets?apiKey=s3cret&X-Api-Key=s3cret', '/pets?apiKey=[redacted]&X-Api-Key=[redacted]'],
    ['/pets?authToken=s3cret&refreshToken=s3cret', '/pets?authToken=[redacted]&refreshToken=[redacted]'],
    ['/pets?%74oken=s3cret', '/pets?%74oken=[redacted]'],
    ['/pets?token[]=s3cret', '/pets?token[]=[redacted]'],
    ['/pets?a=1;token=s3cret', '/pets?a=1;token=[redacted]'],
    ['/pets?client_secret=s3cret&password=s3cret', '/pets?client_secret=[redacted]&password=[redacted]'],
  ])('redacts %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });

  it('leaves URLs without credentials as they are', () => {
    for (const url of ['/pets', '/pets?species=cat&_limit=2', '/pets/1/history', '/pets?q=token']) {
      expect(loggableUrl(url)).toBe(url);
    }
  });
});

describe('redactCredentials', () => {
  it('replaces credential-like query values anywhere in a text, stacks included', () => {
    expect(
      redactCredentials('Error: cannot fetch http://x/pets?token=abc&species=cat\n    at handler (/app/x.js:1:2)'),
    ).toBe('Error: cannot fetch http://x/pets?token=[redacted]&species=cat\n    at handler (/app/x.js:1:2)');
    expect(redactCredentials('GET /a?access_token=abc "quoted"')).toBe('GET /a?access_token=[redacted] "quoted"');
  });
});

describe('AppLogger', () => {
  it('writes no credential from a URL quoted in a message, an error or a stack', () => {
    let written = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const logger = new AppLogger({ logLevel: 'info', logFormat: 'json' }, stream);
    logger.error('[id] unexpected error', 'Error: GET /pets?api_key=SECRET1 failed\n    at x (y.js:1:1)');
    logger.warn('retrying /pets?token=SECRET2', 'Context');
    logger.log(new Error('fetching /x?access_token=SECRET3'));
    logger.log({ url: '/x?session=SECRET4' });
    expect(written.split('\n').filter(Boolean)).toHaveLength(4);
    expect(written).not.toMatch(/SECRET/);
    expect(written).toContain('[redacted]');
  });
});
