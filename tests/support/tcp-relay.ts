import net from 'node:net'

export interface TcpRelay {
  /** http://127.0.0.1:PORT — the relay's address, the same after every restart. */
  url: string
  /** Stops listening and cuts every connection through it, both ways: the server is gone. */
  stop(): Promise<void>
  /** Listens again on the same port: the server is back. */
  start(): Promise<void>
  /**
   * Every WebSocket now open through the relay dies on the server's side only, the way a phone changing
   * networks or a NAT timeout kills it: the server's end is closed, while the browser's end stays open
   * and hears nothing more (no FIN, no RST; what it sends goes nowhere). Plain HTTP connections and new
   * connections go through as before.
   */
  freezeWebSockets(): void
}

/**
 * A TCP relay in front of a test app, so a browser test can take "the server" away and bring it back
 * on the same address: while stopped, nothing listens on the port and every HTTP and WebSocket
 * connection through it is closed, exactly what a browser sees of a crashed or restarting server. (The
 * app itself cannot listen again once closed: engine.io closes its WebSocket server for good when the
 * HTTP server emits 'close', and answers 503 to every later upgrade.)
 */
export async function tcpRelay(targetUrl: string): Promise<TcpRelay> {
  const target = new URL(targetUrl)
  const connections = new Set<net.Socket>()
  /** Each browser-side WebSocket connection with its server-side one, to cut one side only. */
  const webSockets = new Map<net.Socket, net.Socket>()
  let server: net.Server | null = null
  let port = 0

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname)
        connections.add(client)
        connections.add(upstream)
        client.once('data', (chunk: Buffer) => {
          if (/^GET [^\r\n]*transport=websocket/.test(chunk.toString('latin1')))
            webSockets.set(client, upstream)
        })
        const drop = () => {
          client.destroy()
          upstream.destroy()
          connections.delete(client)
          connections.delete(upstream)
          webSockets.delete(client)
        }
        for (const end of [client, upstream]) {
          end.on('error', drop)
          end.on('close', drop)
        }
        client.pipe(upstream).pipe(client)
      })
      listening.once('error', reject)
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as net.AddressInfo).port
        server = listening
        resolve()
      })
    })

  await start()
  return {
    get url() {
      return `http://127.0.0.1:${port}`
    },
    async stop() {
      const closing = server
      server = null
      if (!closing) return
      const closed = new Promise<void>((resolve) => closing.close(() => resolve()))
      for (const connection of connections) connection.destroy()
      connections.clear()
      await closed
    },
    start,
    freezeWebSockets() {
      for (const [client, upstream] of webSockets) {
        webSockets.delete(client)
        connections.delete(upstream)
        client.unpipe(upstream)
        upstream.unpipe(client)
        for (const end of [client, upstream]) {
          end.removeAllListeners('close')
          end.removeAllListeners('error')
          end.on('error', () => {})
        }
        upstream.destroy()
        // The browser's end stays open: what it sends is read and dropped, nothing comes back.
        client.on('data', () => {})
        client.resume()
      }
    },
  }
}
