// `pnpm firm:verify <license> <email>`: an operator verifies an agent's membership of its broker firm
// (how a firm's first member is verified). Works on the embedded database as on PostgreSQL.
import { createServices } from '../compose/services.ts'
import { configOrExit } from '../config.ts'
import { createDb } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { createOutbox } from '../jobs/outbox.ts'
import { noLive } from '../realtime/events.ts'
import { createRedis } from '../redis.ts'

const [license, email] = process.argv.slice(2)
if (!license || !email) {
  console.error('Usage: pnpm firm:verify <broker firm license> <agent email>')
  process.exit(2)
}
const config = configOrExit()
const handle = await createDb(config.db).catch((err: Error) => {
  // The embedded database is held by a running `pnpm start`: say so, without a stack trace.
  console.error(err.message)
  process.exit(1)
})
// Lazily connected: the account limits that would use it are not reached from here.
const redis = createRedis(config.redis.url, 'command', { lazy: true })
try {
  await migrateToLatest(handle.db, config.migrationsDir)
  // No queue here: the decision mail waits in the outbox for the next API or worker process to relay.
  // The agent's open sockets move to the firm room when they next connect.
  const { agents } = createServices({
    config,
    db: handle.db,
    outbox: createOutbox(handle.db, null, null, config.relay),
    live: noLive,
    redis,
  })
  const agent = await agents.findByFirmAndEmail(license, email)
  if (!agent) {
    console.error(`No agent with email ${email} claims broker firm license ${license}.`)
    process.exitCode = 1
  } else {
    const verified = await agents.verifyByOperator(agent.id)
    console.log(
      `Verified ${verified.reAgentFirstName} ${verified.reAgentLastName} (${verified.reAgentEmailId}) as a member of ${verified.reAgentBrokerFirmName} (${license}).`,
    )
  }
} finally {
  redis.disconnect()
  await handle.close()
}
