import 'server-only';
import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for S3-compatible object storage (AWS S3, Cloudflare R2, MinIO,
 * Wasabi, …), header-signed, enough for the few calls the media storage makes. Checked
 * against Amazon's published examples in sigv4.test.ts.
 */

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

const hmac = (key: Uint8Array | string, data: string) =>
  createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as S3 wants it: everything but A-Z a-z 0-9 - . _ ~ (and `/` if kept). */
export function uriEncode(value: string, keepSlash: boolean): string {
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) return c;
    return '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }).join('');
}

export type SigningCredentials = {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service?: string;
};

export type SignInput = SigningCredentials & {
  method: string;
  url: URL;
  /** Headers to send and sign besides host, x-amz-date and x-amz-content-sha256. */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body (EMPTY_SHA256 for none, or 'UNSIGNED-PAYLOAD'). */
  payloadHash: string;
  now?: Date;
};

const amzDate = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function canonicalPath(url: URL): string {
  return url.pathname
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment), false))
    .join('/');
}

function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)] as const)
    .sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : 1) : ak < bk ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** The headers to add to the request: authorization, x-amz-date, x-amz-content-sha256 and the given ones. */
export function signRequest(input: SignInput): Record<string, string> {
  const now = input.now ?? new Date();
  const date = amzDate(now);
  const day = date.slice(0, 8);
  const service = input.service ?? 's3';
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    headers[name.toLowerCase()] = value.trim().replace(/\s+/g, ' ');
  }
  headers['x-amz-date'] = date;
  headers['x-amz-content-sha256'] = input.payloadHash;
  const toSign = { ...headers, host: input.url.host };
  const names = Object.keys(toSign).sort();
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalPath(input.url),
    canonicalQuery(input.url),
    names.map((n) => `${n}:${toSign[n as keyof typeof toSign]}\n`).join(''),
    signedHeaders,
    input.payloadHash,
  ].join('\n');
  const scope = `${day}/${input.region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, day), input.region), service),
    'aws4_request',
  );
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}
