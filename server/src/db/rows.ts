import type { Selectable } from 'kysely'
import type { ReAgentTable } from './types.ts'

/** An agent as every module reads it: the whole `re_agent` row. */
export type AgentRow = Selectable<ReAgentTable>
