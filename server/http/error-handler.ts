import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from '../logger.ts';

// body-parser and send describe what was wrong with a request by `type` and `status`; these are visitor mistakes, so
// each becomes a 4xx with a plain message, never a 500.
const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON',
  'entity.too.large': 'The request body is too large',
  'entity.verify.failed': 'The request body was rejected',
  'parameters.too.many': 'The request has too many fields',
  'charset.unsupported': 'Unsupported charset; send UTF-8',
  'encoding.unsupported': 'Unsupported content encoding',
  'request.aborted': 'The request was aborted',
  'request.size.invalid': 'The request body does not match its Content-Length',
  'stream.encoding.set': 'The request could not be read',
};

interface HttpErrorLike {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  expose?: unknown;
  message?: unknown;
}

/** A visitor's mistake, as body-parser or send reports it: the 4xx and plain message it deserves; else undefined. */
export function clientErrorOf(error: unknown): { status: number; message: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode, type, expose, message } = error as HttpErrorLike;
  const code = typeof status === 'number' ? status : statusCode;
  if (typeof code !== 'number' || code < 400 || code > 499) return undefined;
  const known = typeof type === 'string' ? CLIENT_ERROR_MESSAGES[type] : undefined;
  const text = known ?? (expose === true && typeof message === 'string' ? message : 'Bad request');
  return { status: code, message: text };
}

function answer(req: Request, res: Response, status: number, message: string): void {
  res.status(status);
  if (req.path.startsWith('/api/')) res.json({ error: message });
  else res.type('text/plain; charset=utf-8').send(message);
}

/** Last middleware. Never logs the error object of a client error: body-parser attaches the raw body to it. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const clientError = clientErrorOf(error);
    if (clientError) {
      logger.info({ method: req.method, path: req.path, status: clientError.status }, clientError.message);
      return answer(req, res, clientError.status, clientError.message);
    }
    const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
    logger.error({ err: { name, message, stack }, method: req.method, path: req.path }, 'request failed');
    answer(req, res, 500, 'Something went wrong on our side; please call us');
  };
}
