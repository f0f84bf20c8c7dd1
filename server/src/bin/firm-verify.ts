// `pnpm firm:verify <license> <email> [role]`: an operator verifies an agent's membership of its broker
// firm (how a firm's first member is verified) and, with a role, grants it (Team Lead, Admin Team Member)
// or revokes it (Real Estate Agent). Works on the embedded database as on PostgreSQL.
import { AGENT_ROLES } from '@porchlight/shared'
import { createServices } from '../compose/services.ts'
import { configOrExit } from '../config.ts'
import { createDb } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { AppError } from '../errors.ts'
import { createOutbox } from '../jobs/outbox.ts'
import { noLive } from '../realtime/events.ts'
import { createRedis } from '../redis.ts'

const [license, email, ...roleWords] = process.argv.slice(2)
// The role may come quoted or not: `Team Lead` and "Team Lead" alike.
const role = roleWords.length ? roleWords.join(' ') : undefined
if (!license || !email || (role !== undefined && !(AGENT_ROLES as readonly string[]).includes(role))) {
  console.error(
    `Usage: pnpm firm:verify <broker firm license> <agent email> [${AGENT_ROLES.map((r) => `"${r}"`).join(' | ')}]`,
  )
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
    const who = `${verified.reAgentFirstName} ${verified.reAgentLastName} (${verified.reAgentEmailId})`
    console.log(`Verified ${who} as a member of ${verified.reAgentBrokerFirmName} (${license}).`)
    if (role && role !== verified.reAgentRole) {
      const granted = await agents.grantByOperator(agent.id, role).catch((err: unknown) => {
        // A refusal (a Team Lead needs a license number) is said plainly, without a stack trace.
        if (!(err instanceof AppError)) throw err
        console.error(err.message)
        process.exitCode = 1
        return undefined
      })
      if (granted) console.log(`${who} now holds the role ${granted.reAgentRole}.`)
    } else if (role) {
      console.log(`${who} already holds the role ${role}.`)
    }
  }
} finally {
  redis.disconnect()
  await handle.close()
}
