import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, type StartedProcess, startProcess, stop } from './processes.ts'

const CONFIG = path.resolve(import.meta.dirname, '../../deploy/balancer.conf')

export interface Balancer {
  /** http://127.0.0.1:PORT — the balancer, as visitors reach it. */
  url: string
  close(): Promise<void>
}

/**
 * The production load balancer (nginx with deploy/balancer.conf, as docker-compose.yml runs it) in front
 * of the replicas at `upstreams` (http://127.0.0.1:PORT each): only the replicas' addresses (named, not
 * found through Docker's DNS) and the listening port differ from the shipped file. Runs Debian's nginx
 * (`apt-get install nginx-light`), or NGINX_PATH.
 */
export async function startBalancer(upstreams: string | string[]): Promise<Balancer> {
  const port = await freePort()
  const shipped = fs.readFileSync(CONFIG, 'utf8')
  const servers = [upstreams]
    .flat()
    .map((upstream) => `server ${new URL(upstream).host} max_fails=0;`)
    .join('\n    ')
  const config = shipped
    .replace('server api:3000 resolve max_fails=0;', servers)
    .replace('listen 3000;', `listen 127.0.0.1:${port};`)
  if (!config.includes(servers) || !config.includes(`:${port};`)) {
    throw new Error(
      'deploy/balancer.conf no longer names `server api:3000 resolve max_fails=0;` and port 3000',
    )
  }
  // BALANCER_LOG_DIR keeps nginx's error log and an access log naming each request's replica there.
  const logDir = process.env.BALANCER_LOG_DIR
  const logged = logDir
    ? config.replace(
        'server {',
        `log_format upstreams '$msec $remote_addr "$request" $status [$upstream_addr] [$upstream_status] $request_time';\n  access_log ${logDir}/access.log upstreams;\n  server {`,
      )
    : config
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'balancer-'))
  fs.writeFileSync(path.join(dir, 'nginx.conf'), logged)
  const nginx: StartedProcess = startProcess(
    'nginx',
    process.env.NGINX_PATH ?? '/usr/sbin/nginx',
    [
      '-p',
      dir,
      '-c',
      path.join(dir, 'nginx.conf'),
      '-e',
      logDir ? path.join(logDir, 'error.log') : path.join(dir, 'error.log'),
      '-g',
      `daemon off; pid ${path.join(dir, 'nginx.pid')};`,
    ],
    { cwd: dir, env: process.env },
  )
  const url = `http://127.0.0.1:${port}`
  await nginx.waitUntil('the balancer answering', async () => {
    try {
      return (await fetch(`${url}/api/health`)).status < 500
    } catch {
      return false
    }
  })
  return {
    url,
    async close() {
      await stop(nginx.child)
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
