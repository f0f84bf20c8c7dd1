export interface FieldError {
  field: string
  message: string
}

/** A failure the caller can act on; the error handler turns it into API.md's shape. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldError[],
  ) {
    // An answer to the caller (4xx) is not a fault: it captures no stack (a claim race answers 199).
    const depth = Error.stackTraceLimit
    if (statusCode < 500) Error.stackTraceLimit = 0
    super(message)
    Error.stackTraceLimit = depth
    this.name = new.target.name
  }
}

export class BadRequestError extends AppError {
  constructor(message = 'Bad Request', code = 'BAD_REQUEST') {
    super(400, code, message)
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string, code = 'BAD_CREDENTIALS') {
    super(401, code, message)
  }
}

export class PlanLimitError extends AppError {
  constructor(code: string, message: string) {
    super(402, code, message)
  }
}

export class SessionExpiredError extends AppError {
  constructor(message = 'Your Session Expired. Please sign in again!') {
    super(403, 'SESSION_EXPIRED', message)
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden', code = 'FORBIDDEN') {
    super(403, code, message)
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not Found', code = 'NOT_FOUND') {
    super(404, code, message)
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string) {
    super(409, code, message)
  }
}

export class ValidationError extends AppError {
  constructor(fields: FieldError[], message = 'Some fields need attention') {
    super(422, 'VALIDATION', message, fields)
  }
}

export class RateLimitedError extends AppError {
  constructor(
    message = 'Too many requests. Please wait a moment and try again.',
    /** Sent as Retry-After: seconds until the caller may try again. */
    readonly retryAfterSec?: number,
  ) {
    super(429, 'RATE_LIMITED', message)
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(code: string, message: string) {
    super(503, code, message)
  }
}

/**
 * The process is overloaded (decision 047): answered like every 503 of ours (UNAVAILABLE, Retry-After),
 * so a caller that waits out a restart waits this out too. Not logged one by one: the shed counter
 * (metrics) says how many.
 */
export class OverloadedError extends ServiceUnavailableError {
  constructor() {
    super('UNAVAILABLE', 'Porchlight is briefly unavailable. Please try again in a moment.')
  }
}

/** Something that existed and is used up for good (a single-use capability used). */
export class GoneError extends AppError {
  constructor(message: string, code = 'GONE') {
    super(410, code, message)
  }
}
