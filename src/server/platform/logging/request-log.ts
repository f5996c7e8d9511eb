import 'server-only';
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { requestLineLogger } from './logger';

/** What a proxy may hand us as its request id: short, and nothing a log reader could trip on. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The request's id: the one the trusted proxy in front of us assigned (nginx's $request_id,
 * a load balancer's), so one id follows a request through both logs; else a new one.
 */
export function requestIdFor(req: http.IncomingMessage, trustProxy: boolean): string {
  const given = req.headers['x-request-id'];
  if (trustProxy && typeof given === 'string' && FORWARDED_ID.test(given)) return given;
  return randomUUID();
}

/**
 * One line per answered request. The path only: query strings carry tokens (password reset,
 * e-mail verification, signed media, draft keys) and are never logged.
 */
export function logAnswer(
  req: http.IncomingMessage,
  status: number,
  startedAt: number,
  requestId: string,
): void {
  const logger = requestLineLogger();
  if (!logger) return;
  const path = (req.url ?? '/').split('?', 1)[0]!.slice(0, 300);
  const ms = Math.round((performance.now() - startedAt) * 10) / 10;
  const level = status >= 500 ? 'error' : 'info';
  logger[level]({ requestId, method: req.method, path, status, ms }, 'request');
}
