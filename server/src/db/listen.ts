import pg from 'pg'
import type { Notified } from './handle.ts'

/** LISTEN on a connection of its own, reconnecting after a second when the connection is lost. */
export function listenOver(url: string, channel: string, onNotify: Notified): () => Promise<void> {
  let client: pg.Client | null = null
  let stopped = false
  let retry: NodeJS.Timeout | undefined
  const connect = async () => {
    const next = new pg.Client({ connectionString: url })
    client = next
    const lost = () => {
      if (client !== next) return
      client = null
      onNotify({ listening: false })
      if (!stopped) retry = setTimeout(connect, 1000)
    }
    next.on('error', lost)
    next.on('end', lost)
    next.on('notification', () => onNotify({ listening: true }))
    try {
      await next.connect()
      await next.query(`listen ${pg.escapeIdentifier(channel)}`)
      if (stopped) await next.end()
      else onNotify({ listening: true })
    } catch {
      lost()
      await next.end().catch(() => {})
    }
  }
  onNotify({ listening: false })
  void connect()
  return async () => {
    stopped = true
    clearTimeout(retry)
    const last = client
    client = null
    await last?.end().catch(() => {})
  }
}
