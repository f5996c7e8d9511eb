import { describe, expect, it } from 'vitest';
import { EMPTY_SHA256, sha256Hex, signRequest, uriEncode } from './sigv4';

// Amazon's worked examples: https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
const example = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  now: new Date('2013-05-24T00:00:00Z'),
};
const credential = 'Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request';

describe('signRequest reproduces the published S3 examples', () => {
  it('GET Object with a Range', () => {
    const headers = signRequest({
      ...example,
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9' },
      payloadHash: EMPTY_SHA256,
    });
    expect(headers.authorization).toBe(
      `AWS4-HMAC-SHA256 ${credential}, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ` +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
    expect(headers['x-amz-content-sha256']).toBe(EMPTY_SHA256);
    expect(headers.range).toBe('bytes=0-9');
  });

  it('PUT Object with a body and a character to escape in the key', () => {
    const body = 'Welcome to Amazon S3.';
    const headers = signRequest({
      ...example,
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/test$file.text'),
      headers: {
        Date: 'Fri, 24 May 2013 00:00:00 GMT',
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
      },
      payloadHash: sha256Hex(body),
    });
    expect(sha256Hex(body)).toBe(
      '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
    );
    expect(headers.authorization).toContain(
      'SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, ' +
        'Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
  });

  it.each([
    [
      'GET Bucket lifecycle (a query parameter without a value)',
      '?lifecycle',
      'fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543',
    ],
    [
      'GET Bucket, list objects (sorted query parameters)',
      '?prefix=J&max-keys=2',
      '34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7',
    ],
  ])('%s', (_example, query, signature) => {
    const headers = signRequest({
      ...example,
      method: 'GET',
      url: new URL(`https://examplebucket.s3.amazonaws.com/${query}`),
      payloadHash: EMPTY_SHA256,
    });
    expect(headers.authorization).toContain(`Signature=${signature}`);
  });
});

describe('uriEncode', () => {
  it('keeps only unreserved characters (and slashes when asked)', () => {
    expect(uriEncode('a b/ü~$.txt', true)).toBe('a%20b/%C3%BC~%24.txt');
    expect(uriEncode('a/b', false)).toBe('a%2Fb');
  });
});
