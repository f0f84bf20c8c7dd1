import { createPrivateKey } from 'node:crypto'
import fs from 'node:fs'
import { isIP } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'
import { z } from 'zod'
import { newSecretsKey, parseSecretsKey } from './secrets.ts'

/** server/src, given by `pnpm start`'s bundle (server/start-bundle.ts), which lives in a cache. */
declare const PORCHLIGHT_SERVER_SRC: string | undefined
/** `pnpm start`'s bundle: where it made the migrations (server/start-bundle.ts). */
declare const PORCHLIGHT_MIGRATIONS_DIR: string | undefined
const here =
  typeof PORCHLIGHT_SERVER_SRC === 'string'
    ? PORCHLIGHT_SERVER_SRC
    : path.dirname(fileURLToPath(import.meta.url))
/** Under tsx and vitest this is server/src/config.ts; in production it is bundled into server/dist/*.js. */
const compiled = typeof PORCHLIGHT_SERVER_SRC !== 'string' && import.meta.url.endsWith('.js')
// Both places sit two levels below the repository root (or /app in the image).
const repoRoot = path.resolve(here, '../..')

const urlWith = (...protocols: string[]) =>
  // z.url() reports a value that is no URL; the refinement runs on it too, so it must not throw.
  z.url().refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol), {
    message: `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  })

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: urlWith('http:', 'https:').optional(),
  DATABASE_URL: urlWith('postgres:', 'postgresql:').optional(),
  REDIS_URL: urlWith('redis:', 'rediss:').optional(),
  SMTP_URL: urlWith('smtp:', 'smtps:').optional(),
  MAIL_FROM: z.string().min(3).default('Porchlight <no-reply@porchlight.local>'),
  DKIM_DOMAIN: z
    .string()
    .trim()
    .regex(/^(?=.{1,253}$)([a-z\d]([a-z\d-]{0,61}[a-z\d])?\.)+[a-z]{2,63}$/i, {
      message: 'must be a domain name (example.com)',
    })
    .optional(),
  DKIM_SELECTOR: z
    .string()
    .trim()
    .regex(/^[a-z\d]([a-z\d._-]{0,62})$/i, { message: 'must be a DNS label (letters, digits, dot, dash)' })
    .optional(),
  DKIM_PRIVATE_KEY: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return undefined
      // A PEM key as one line (its line breaks written as \n, as .env files and secret stores keep it).
      const pem = value.replace(/\\n/g, '\n')
      try {
        const key = createPrivateKey(pem)
        // nodemailer signs rsa-sha256 only; a key under 1024 bits is refused by receivers (RFC 8301).
        if (key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 1024) {
          return pem
        }
      } catch {}
      ctx.addIssue({ code: 'custom', message: 'must be an RSA private key of 1024 bits or more, in PEM' })
      return z.NEVER
    }),
  GEOCODER_URL: urlWith('http:', 'https:').optional(),
  MAP_STYLE_URL: urlWith('http:', 'https:').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
  SIGNIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(10),
  GUEST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(60),
  ACCOUNT_MAIL_RATE_LIMIT_PER_HOUR: z.coerce.number().int().positive().default(10),
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((value, ctx) => {
      if (value === 'false' || value === '') return false
      if (value === 'true') return true
      if (/^\d{1,2}$/.test(value)) return Number(value)
      const addresses = value.split(',').map((a) => a.trim())
      if (
        addresses.every((a) => isIP(a.split('/')[0] ?? '') !== 0 && /^[\da-fA-F.:]+(\/\d{1,3})?$/.test(a))
      ) {
        return addresses
      }
      ctx.addIssue({
        code: 'custom',
        message: 'false, true, a number of proxy hops, or proxy addresses/CIDRs separated by commas',
      })
      return z.NEVER
    }),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  API_NICENESS: z.coerce.number().int().min(0).max(19).default(10),
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  QUEUE_DASHBOARD_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  ADMIN_TOKEN: z.string().min(24, { message: 'must be at least 24 characters' }).optional(),
  OPERATOR_EMAIL: z.string().email({ message: 'must be an email address' }).optional(),
  WORKER_HEARTBEAT_FILE: z.string().min(1).optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(7000),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  PUSH_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  VAPID_PUBLIC_KEY: z
    .string()
    .trim()
    .refine((v) => /^[\w-]+=*$/.test(v) && Buffer.from(v, 'base64url').length === 65, {
      message: 'a P-256 public key, 65 bytes as base64url (npx web-push generate-vapid-keys)',
    })
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .refine((v) => /^[\w-]+=*$/.test(v) && Buffer.from(v, 'base64url').length === 32, {
      message: 'a P-256 private key, 32 bytes as base64url (npx web-push generate-vapid-keys)',
    })
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .trim()
    .refine((v) => /^mailto:[^@\s]+@[^@\s]+$/.test(v) || /^https:\/\/\S+$/.test(v), {
      message: 'a mailto: address or an https: URL the push services may reach you at',
    })
    .optional(),
  FUB_API_URL: urlWith('http:', 'https:').default('https://api.followupboss.com'),
  // Follow Up Boss asks registered integrations to name themselves (X-System) and prove it (X-System-Key).
  FUB_SYSTEM: z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]{1,64}$/, { message: 'printable ASCII without spaces, at most 64 characters' })
    .default('Porchlight'),
  FUB_SYSTEM_KEY: z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]{8,200}$/, { message: 'printable ASCII without spaces, 8 to 200 characters' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SECRETS_KEY: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return []
      const keys = value.split(',').map((k) => parseSecretsKey(k))
      if (keys.every((k) => k !== null)) return keys
      ctx.addIssue({
        code: 'custom',
        message:
          'one or more 32-byte keys, base64 or 64 hex digits, separated by commas (the first seals; make one with: openssl rand -base64 32)',
      })
      return z.NEVER
    }),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_TOKEN: z.string().min(24, { message: 'must be at least 24 characters' }).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: urlWith('http:', 'https:').optional(),
  OTEL_SERVICE_NAME: z.string().trim().min(1).max(100).optional(),
  SHED_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  SHED_HEAP_USED_BYTES: z.coerce.number().int().min(0).optional(),
  SHED_DB_POOL_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w.-]{1,32}$/, { message: 'letters, digits, dot, dash or underscore (at most 32)' })
    .default('pl'),
})

export interface Config {
  port: number
  host: string
  publicUrl: string
  logLevel: z.infer<typeof Env>['LOG_LEVEL']
  /** With no url, PostgreSQL runs embedded (PGlite) under dataDir. */
  db: { url?: string; dataDir: string }
  redis: { url: string; explicit: boolean; prefix: string }
  mail: {
    smtpUrl?: string
    from: string
    /** Signs every mail (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY: all three, or none). */
    dkim?: { domainName: string; keySelector: string; privateKey: string }
  }
  /** A mail the SMTP server could not take yet waits in PostgreSQL (decision 031). */
  mailRetry: {
    /** The wait after each failed attempt; the last is repeated until `giveUpAfterMs`. */
    delaysMs: readonly number[]
    /** A mail still not taken this long after it was written is failed for good. */
    giveUpAfterMs: number
    /** While mail waits for an unanswering server, the worker checks it this often. */
    probeIntervalMs: number
    /** How often a worker hands due waiting mail back to the queue. */
    sweepIntervalMs: number
    /** How often a worker takes the consenting guests' welcomes owed (their thank-yous, decision 053). */
    welcomesIntervalMs: number
  }
  geocoderUrl?: string
  mapStyleUrl?: string
  /**
   * Per client address; sign-in has its own, stricter limit (SPEC: 10 a minute), and each call that
   * mails an account (sign-up, code resend, password reset) its own per hour.
   */
  rateLimit: {
    max: number
    timeWindowMs: number
    signInPerMinute: number
    guestPerMinute: number
    accountMailsPerHour: number
  }
  /**
   * Fastify's trustProxy: which proxies' X-Forwarded-For to believe, so per-address limits count the
   * client behind a load balancer, not the balancer. Off by default: a client could name any address.
   */
  trustProxy: boolean | number | string[]
  /** API processes `pnpm start` runs on one port (with DATABASE_URL; the embedded PostgreSQL serves one). */
  webConcurrency: number
  /**
   * How much nicer (lower in scheduling priority) `pnpm start`'s API processes are than its workers'
   * process, with DATABASE_URL (decision 062); 0 runs them alike.
   */
  apiNiceness: number
  /** How long a process keeps a session and its agent (ms); 0 reads them on every request. */
  sessionCacheMs: number
  /** Directory of the built web app; served with an index.html fallback when present. */
  webDist: string
  /** Enables the queue dashboard at /admin/queues, guarded by this token. */
  queueDashboardToken?: string
  /** Enables the operator routes under /api/admin (verify a firm's first member), guarded by this token. */
  adminToken?: string
  /** OPERATOR_EMAIL: where agents' requests to verify their firm membership are mailed */
  operatorEmail?: string | undefined
  /** migrations/*.ts from source; server/dist/migrations/*.js (same names) in the compiled build. */
  migrationsDir: string
  /** A worker process touches this file while PostgreSQL and Redis answer it (container health check). */
  workerHeartbeatFile?: string
  /**
   * How long a process finishes its work after SIGTERM (requests in flight, jobs running) before it
   * cuts what is left; it has exited 1 s later at the latest (shutdown.ts).
   */
  shutdownGraceMs: number
  relay: { intervalMs: number; batchSize: number; redeliverAfterMs: number }
  webhooks: {
    /** Deliveries to loopback, private and link-local addresses (tests, on-premises receivers). */
    allowPrivateTargets: boolean
    /** The wait before each retry of a failed attempt; after the last, the delivery is failed. */
    retryDelaysMs: readonly number[]
    /** An endpoint whose attempts have failed this long, without a success between, is disabled. */
    disableAfterMs: number
    /** How long one attempt waits for the receiver's answer. */
    timeoutMs: number
  }
  /** Follow Up Boss's API (its events endpoint is {apiUrl}/v1/events). */
  fub: {
    apiUrl: string
    /** The X-System header; `systemKey` the X-System-Key one, sent only when set. */
    system: string
    systemKey: string | undefined
    /** Waits between attempts Follow Up Boss did not answer, or answered 5xx (decision 041). */
    retryDelaysMs: readonly number[]
    timeoutMs: number
  }
  /**
   * Web Push (decision 050). Without VAPID keys no push is written (the web offers no notifications);
   * `pnpm start` keeps a pair of its own in `vapidFile`.
   */
  push: {
    vapid?: { publicKey: string; privateKey: string; subject: string }
    vapidFile: string
    fromFile?: boolean
    /** Push services at loopback, private and link-local addresses (tests). */
    allowPrivateTargets: boolean
    /** How long one attempt waits for the push service's answer. */
    timeoutMs: number
    /** The wait after each failed attempt (a 429's Retry-After, when longer, wins). */
    retryDelaysMs: readonly number[]
  }
  /**
   * Keys that seal secrets kept in the database (decision 033): the first seals, all open. Empty when
   * SECRETS_KEY is unset: `pnpm start` then keeps a key of its own in `keyFile`; the API and worker
   * processes refuse to start.
   */
  secrets: { keys: Buffer[]; keyFile: string; fromFile?: boolean }
  /**
   * Prometheus metrics (decision 047): on a port of their own (not behind the balancer), and/or at
   * /metrics on the public port for a caller with the token. Neither set: no /metrics anywhere.
   */
  metrics: { port?: number; token?: string }
  /**
   * OpenTelemetry export (decision 052): spans over OTLP/HTTP to `endpoint` (a collector's base URL;
   * `/v1/traces` is added). Unset: the SDK is never loaded.
   */
  telemetry: { endpoint?: string; serviceName?: string }
  /**
   * Load shedding (decision 047): past any of these, API requests are answered 503 UNAVAILABLE with
   * Retry-After at once instead of queueing. 0 turns one off. The heap limit is by default 90% of
   * V8's heap size limit.
   */
  shedding: { eventLoopDelayMs: number; heapUsedBytes: number; dbPoolWaitMs: number }
}

/**
 * Retries of a failed webhook attempt, about a day in all (the schedule Standard Webhooks' authors use):
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then 10 h more before the delivery is marked failed.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
]

/**
 * Waits between a mail's attempts when the SMTP server refused it for now (4xx) or did not answer: short
 * at first (a server restarting), then up to two hours, repeated until three days after the mail was
 * written (about what mail servers themselves keep trying). A mail waiting for a server that does not
 * answer goes sooner: as soon as the worker's probe finds it answering again.
 */
export const MAIL_RETRY_DELAYS_MS = [
  15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000, 3_600_000, 7_200_000,
]

/** A mail the server has not taken three days after it was written is failed for good. */
export const MAIL_GIVE_UP_AFTER_MS = 3 * 24 * 3600_000

export class ConfigError extends Error {}

/** Parses the environment once; every bad variable is named in one error. */
/**
 * The settings a process of ours hands to a process it starts (the worker under `pnpm start`): its own
 * environment, as read here, with what the start decided laid over it.
 */
export function childEnvironment(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A setting written but left blank (`SMTP_URL=` in a .env file, `\${SMTP_URL}` of an unset variable in a
  // compose file) is not set: its default applies, as if the line were not there.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value?.trim()))
  const parsed = Env.safeParse(given)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid settings:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const dkimSet = [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY].filter((v) => v !== undefined)
  if (dkimSet.length > 0 && dkimSet.length < 3) {
    throw new ConfigError(
      'Invalid settings:\n  DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY: set all three to sign mail, or none',
    )
  }
  const dkim =
    e.DKIM_DOMAIN && e.DKIM_SELECTOR && e.DKIM_PRIVATE_KEY
      ? { domainName: e.DKIM_DOMAIN, keySelector: e.DKIM_SELECTOR, privateKey: e.DKIM_PRIVATE_KEY }
      : undefined
  const vapidSet = [e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY].filter((v) => v !== undefined).length
  if (vapidSet === 1) {
    throw new ConfigError(
      'Invalid settings:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both (one pair) or neither',
    )
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    db: { url: e.DATABASE_URL, dataDir: path.join(repoRoot, 'data', 'pg') },
    redis: {
      url: e.REDIS_URL ?? 'redis://127.0.0.1:6379',
      explicit: e.REDIS_URL !== undefined,
      prefix: e.REDIS_KEY_PREFIX,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, dkim },
    mailRetry: {
      delaysMs: MAIL_RETRY_DELAYS_MS,
      giveUpAfterMs: MAIL_GIVE_UP_AFTER_MS,
      probeIntervalMs: 20_000,
      sweepIntervalMs: 5000,
      welcomesIntervalMs: 200,
    },
    geocoderUrl: e.GEOCODER_URL,
    mapStyleUrl: e.MAP_STYLE_URL,
    rateLimit: {
      max: e.RATE_LIMIT_MAX,
      timeWindowMs: 60_000,
      signInPerMinute: e.SIGNIN_RATE_LIMIT_PER_MINUTE,
      guestPerMinute: e.GUEST_RATE_LIMIT_PER_MINUTE,
      accountMailsPerHour: e.ACCOUNT_MAIL_RATE_LIMIT_PER_HOUR,
    },
    trustProxy: e.TRUST_PROXY,
    webConcurrency: e.WEB_CONCURRENCY,
    apiNiceness: e.API_NICENESS,
    sessionCacheMs: e.SESSION_CACHE_MS,
    webDist: path.join(repoRoot, 'web', 'dist'),
    queueDashboardToken: e.QUEUE_DASHBOARD_TOKEN,
    adminToken: e.ADMIN_TOKEN,
    /** Where an agent's request to verify its firm membership is mailed; without it, only listed. */
    operatorEmail: e.OPERATOR_EMAIL,
    migrationsDir:
      typeof PORCHLIGHT_MIGRATIONS_DIR === 'string'
        ? PORCHLIGHT_MIGRATIONS_DIR
        : compiled
          ? path.join(here, 'migrations')
          : path.join(repoRoot, 'migrations'),
    workerHeartbeatFile: e.WORKER_HEARTBEAT_FILE,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    relay: { intervalMs: 250, batchSize: 100, redeliverAfterMs: 60_000 },
    webhooks: {
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
      disableAfterMs: 3 * 24 * 3600_000,
      timeoutMs: 10_000,
    },
    fub: {
      apiUrl: e.FUB_API_URL.replace(/\/$/, ''),
      system: e.FUB_SYSTEM,
      systemKey: e.FUB_SYSTEM_KEY,
      retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
      timeoutMs: 10_000,
    },
    push: {
      vapid:
        e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
          ? {
              publicKey: e.VAPID_PUBLIC_KEY,
              privateKey: e.VAPID_PRIVATE_KEY,
              subject: e.VAPID_SUBJECT ?? vapidSubjectFor(e.PUBLIC_URL, e.MAIL_FROM),
            }
          : undefined,
      vapidFile: path.join(repoRoot, 'data', 'vapid-keys.json'),
      allowPrivateTargets: e.PUSH_ALLOW_PRIVATE_TARGETS,
      timeoutMs: 10_000,
      retryDelaysMs: [5_000, 30_000, 120_000, 600_000],
    },
    secrets: { keys: e.SECRETS_KEY, keyFile: path.join(repoRoot, 'data', 'secrets-key') },
    metrics: { port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    telemetry: { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME },
    shedding: {
      eventLoopDelayMs: e.SHED_EVENT_LOOP_DELAY_MS,
      heapUsedBytes: e.SHED_HEAP_USED_BYTES ?? Math.round(v8.getHeapStatistics().heap_size_limit * 0.9),
      dbPoolWaitMs: e.SHED_DB_POOL_WAIT_MS,
    },
  }
}

/**
 * The API and worker processes of the production shape never fall back to embedded PostgreSQL or a
 * guessed Redis: a forgotten setting would otherwise split the data silently. `pnpm start` keeps them.
 */
export function requireServers(config: Config): Config {
  const missing = [config.db.url ? null : 'DATABASE_URL', config.redis.explicit ? null : 'REDIS_URL'].filter(
    (name) => name !== null,
  )
  if (missing.length > 0) {
    throw new ConfigError(
      `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set: the API and worker processes run only on PostgreSQL and Redis servers (on a laptop, use pnpm start, which runs embedded PostgreSQL and a local Redis).`,
    )
  }
  // Every API process and worker must hold the same key: one made up by each would seal secrets that
  // the others cannot open.
  if (config.secrets.keys.length === 0) {
    throw new ConfigError(
      'SECRETS_KEY is not set: the API and worker processes seal stored secrets with it and must all share it (make one with: openssl rand -base64 32; on a laptop, pnpm start keeps one in data/secrets-key).',
    )
  }
  return config
}

/** For the processes in bin/: a bad or missing setting ends the start with its message, no stack trace. */
export function configOrExit(read: () => Config = loadConfig): Config {
  try {
    return read()
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    console.error(err.message)
    process.exit(1)
  }
}

/**
 * `pnpm start` without SECRETS_KEY: the key kept in data/secrets-key, made on the first start (as the
 * embedded database's data is). Every process of one start reads the same file.
 */
export function withLocalSecretsKey(config: Config): Config {
  if (config.secrets.keys.length > 0) return config
  const file = config.secrets.keyFile
  fs.mkdirSync(path.dirname(file), { recursive: true })
  try {
    fs.writeFileSync(file, `${newSecretsKey()}\n`, { flag: 'wx', mode: 0o600 })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const key = parseSecretsKey(fs.readFileSync(file, 'utf8'))
  if (!key) throw new ConfigError(`${file} holds no key: delete it or set SECRETS_KEY`)
  return { ...config, secrets: { ...config.secrets, keys: [key], fromFile: true } }
}

/** Push services want a way to reach the sender: an https origin, else the sender's mail address. */
function vapidSubjectFor(publicUrl: string | undefined, mailFrom: string): string {
  if (publicUrl?.startsWith('https://')) return publicUrl.replace(/\/$/, '')
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom
  return `mailto:${address.trim()}`
}

/**
 * `pnpm start` without VAPID keys: a pair kept in data/vapid-keys.json, made on the first start, so
 * the browsers' subscriptions (bound to the public key) survive a restart.
 */
export function withLocalVapidKeys(
  config: Config,
  generate: () => { publicKey: string; privateKey: string },
): Config {
  if (config.push.vapid) return config
  const file = config.push.vapidFile
  fs.mkdirSync(path.dirname(file), { recursive: true })
  try {
    fs.writeFileSync(file, `${JSON.stringify(generate())}\n`, { flag: 'wx', mode: 0o600 })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey?: string; privateKey?: string }
  if (!kept.publicKey || !kept.privateKey)
    throw new ConfigError(
      `${file} holds no key pair: delete it or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY`,
    )
  const subject = vapidSubjectFor(config.publicUrl, config.mail.from)
  return {
    ...config,
    push: {
      ...config.push,
      vapid: { publicKey: kept.publicKey, privateKey: kept.privateKey, subject },
      fromFile: true,
    },
  }
}

export const paths = { repoRoot, dataDir: path.join(repoRoot, 'data') }
